/// `noiseclock fleet`: every node under a base topic, from its retained topics (and its Home
/// Assistant discovery config for the version), one row each. Pure: the reader feeds messages.
public struct FleetView: Sendable {
    public struct Row: Sendable, Equatable {
        public var id: String
        /// `online`, `offline`, or nil (no availability seen).
        public var availability: String?
        public var version: String?
        /// The next alarm: `at` and `label`.
        public var next: (at: String, label: String)?
        /// `~/alarm` `ready`: nil when the node publishes none (older, or not checked yet).
        public var ready: (ok: Bool, codes: [String])?
        public var audio: String?
        public var battery: String?
        /// The newest moment the node was heard: a live message's arrival, or its last check.
        public var lastHeard: String?

        public var online: Bool { availability == "online" }
        /// An online node whose last check found a problem.
        public var notReady: Bool { online && ready?.ok == false }

        public static func == (lhs: Row, rhs: Row) -> Bool { lhs.json == rhs.json }

        public var json: JSONValue {
            .object(JSONObject([
                ("id", .string(id)),
                ("online", availability.map { .bool($0 == "online") } ?? .null),
                ("version", .optional(version)),
                ("next", next.map { ["at": .string($0.at), "label": .string($0.label)] } ?? .null),
                ("ready", ready.map { ["ok": .bool($0.ok), "problems": .array($0.codes.map { .string($0) })] } ?? .null),
                ("audio", .optional(audio)),
                ("battery", .optional(battery)),
                ("last_heard", .optional(lastHeard)),
            ]))
        }
    }

    public let base: String
    public let discoveryPrefix: String
    private var rows: [String: Row] = [:]

    public init(base: String, discoveryPrefix: String = "homeassistant") {
        self.base = base
        self.discoveryPrefix = discoveryPrefix
    }

    /// The topics to subscribe to.
    public var subscriptions: [String] {
        ["availability", "alarm", "audio", "battery", "time"].map { "\(base)/+/\($0)" }
            + ["\(discoveryPrefix)/binary_sensor/+/alarm_ready/config"]
    }

    /// Takes one message; `receivedAt` (ISO) marks a live (not retained) one as heard then.
    public mutating func take(topic: String, payload: [UInt8], retain: Bool, receivedAt: String) {
        if topic.hasPrefix(discoveryPrefix + "/") {
            takeDiscovery(payload)
            return
        }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let baseLevels = base.split(separator: "/").count
        guard topic.hasPrefix(base + "/"), levels.count == baseLevels + 2 else { return }
        let id = levels[baseLevels], suffix = levels[baseLevels + 1]
        guard id != "all", id != "groups" else { return }
        var row = rows[id] ?? Row(id: id)
        let json = try? JSONParser().parse(payload)
        switch suffix {
        case "availability": row.availability = String(decoding: payload, as: UTF8.self)
        case "alarm":
            if let next = json?["next"], let at = next["at"]?.stringValue {
                row.next = (at, next["label"]?.stringValue ?? "")
            } else {
                row.next = nil
            }
            if let ready = json?["ready"], let ok = ready["ok"]?.boolValue {
                let codes = ready["problems"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
                row.ready = (ok, codes)
                if let checked = ready["checked_at"]?.stringValue { row.heard(checked) }
            }
        case "audio": row.audio = json?["status"]?.stringValue
        case "battery":
            if json?["present"] == false {
                row.battery = "ac"
            } else if let level = json?["level"]?.intValue {
                row.battery = "\(level)%"
            }
        default: break
        }
        if !retain { row.heard(receivedAt) }
        rows[id] = row
    }

    private mutating func takeDiscovery(_ payload: [UInt8]) {
        guard let device = (try? JSONParser().parse(payload))?["device"],
              let identifier = device["identifiers"]?.arrayValue?.first?.stringValue, identifier.hasPrefix("noiseclock_")
        else { return }
        let id = String(identifier.dropFirst("noiseclock_".count))
        var row = rows[id] ?? Row(id: id)
        row.version = device["sw_version"]?.stringValue
        rows[id] = row
    }

    /// Every node, by id.
    public var nodes: [Row] { rows.values.filter { $0.availability != nil }.sorted { $0.id < $1.id } }

    /// 1 when an online node is not ready, else 0.
    public var exitStatus: Int32 { nodes.contains(where: \.notReady) ? 1 : 0 }

    public var json: JSONValue { .array(nodes.map(\.json)) }

    /// The table, then one summary line.
    public var table: String {
        let header = ["NODE", "ONLINE", "VERSION", "NEXT ALARM", "READY", "AUDIO", "BATTERY", "LAST HEARD"]
        let cells = nodes.map { row -> [String] in
            [
                row.id, row.availability ?? "-", row.version ?? "-",
                row.next.map { "\($0.at) \($0.label)" } ?? "-",
                row.ready.map { $0.ok ? "ready" : "NOT READY: " + $0.codes.joined(separator: ",") } ?? "-",
                row.audio ?? "-", row.battery ?? "-", row.lastHeard ?? "-",
            ]
        }
        var widths = header.map(\.count)
        for line in cells { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func render(_ line: [String]) -> String {
            line.enumerated().map { index, cell in
                index == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        let all = nodes
        let online = all.filter(\.online).count
        let notReady = all.filter(\.notReady).count
        let counted = all.count == 1 ? "1 node" : "\(all.count) nodes"
        let summary = "\(counted): \(online) online, \(all.count - online) offline; \(notReady) online not ready"
        return ([render(header)] + cells.map(render) + [summary]).joined(separator: "\n")
    }
}

extension FleetView.Row {
    init(id: String) { self.id = id }

    /// Keeps the newest of two ISO instants written the same way (the text order is the time order
    /// within one node's zone).
    mutating func heard(_ at: String) {
        if lastHeard == nil || at > lastHeard! { lastHeard = at }
    }
}
