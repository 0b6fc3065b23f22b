import NoiseClockCore

/// Turns the node's observations into what the web serves: `/api/state`'s object, the event
/// stream's events, and `/healthz`'s view of MQTT and the audio.
public enum WebStateView {
    /// Facts about the node that no topic carries, for the device page and the page language.
    public struct NodeInfo: Sendable, Equatable {
        public var nodeID: String
        public var version: String
        public var timezone: String
        public var locale: String
        /// Whether the node's settings were never touched (no `settings.json`), asked at each
        /// snapshot: with a sound device that does not open, the face offers "Set up this clock".
        public var firstStart: @Sendable () -> Bool = { false }
        /// Whether the first-start wizard was finished once (`"setup_done"` in `settings.json`, v1.4):
        /// until then every page offers "Set up this clock".
        public var setupDone: @Sendable () -> Bool = { true }
        /// When this process started (ms since 1970): the settings page's "Restart now" waits for
        /// an answer with another one (http-api v1.4).
        public var startedMilliseconds: Int = 0
        /// The language now (a Save applies `locale` at once, v1.4's wizard among them); nil: `locale`.
        public var liveLocale: (@Sendable () -> String)? = nil

        public init(nodeID: String, version: String, timezone: String, locale: String) {
            self.nodeID = nodeID
            self.version = version
            self.timezone = timezone
            self.locale = locale
        }

        var json: [UInt8] {
            JSONValue.object(JSONObject([
                ("node_id", .string(nodeID)), ("version", .string(version)),
                ("timezone", .string(timezone)), ("locale", .string(liveLocale?() ?? locale)), ("first_start", .bool(firstStart())),
                ("setup_done", .bool(setupDone())), ("started_ms", .int(Int64(startedMilliseconds))),
            ])).bytes
        }

        public static func == (lhs: NodeInfo, rhs: NodeInfo) -> Bool {
            (lhs.nodeID, lhs.version, lhs.timezone, lhs.locale) == (rhs.nodeID, rhs.version, rhs.timezone, rhs.locale)
        }
    }

    /// `{"availability": "online", "alarms": [...], ..., "time": {...}, "node": {...}}`: each
    /// topic's payload as it is (JSON), or as a string when it is plain text.
    public static func stateObject(_ entries: [Observation], node: NodeInfo) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        var seen: Set<String> = []
        for entry in entries where seen.insert(entry.suffix).inserted {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            out += JSONValue.string(entry.suffix).bytes
            out.append(UInt8(ascii: ":"))
            out += jsonPayload(entry.payload)
        }
        if out.count > 1 { out.append(UInt8(ascii: ",")) }
        out += Array(#""node":"#.utf8) + node.json
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A payload that is JSON stays as it is; anything else becomes a JSON string.
    static func jsonPayload(_ payload: [UInt8]) -> [UInt8] {
        if let first = payload.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
           (try? JSONParser().parse(payload)) != nil {
            return payload
        }
        return JSONValue.string(String(decoding: payload, as: UTF8.self)).bytes
    }

    /// One server-sent event: `event: <suffix>` and the payload as `data:` lines.
    public static func event(_ observation: Observation) -> [UInt8] {
        var out = Array("event: \(observation.suffix)\n".utf8)
        for line in observation.payload.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            out += Array("data: ".utf8) + line.filter { $0 != UInt8(ascii: "\r") } + [UInt8(ascii: "\n")]
        }
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// What `/healthz` says, kept up to date from the observations.
    public struct Health: Sendable, Equatable {
        public var mqttConnected = false
        public var audioOK = true

        public init() {}

        public mutating func update(_ observation: Observation) {
            switch observation.suffix {
            case "availability":
                mqttConnected = observation.payload == Array("online".utf8)
            case "audio":
                if case .object(let object)? = try? JSONParser().parse(observation.payload), case .string(let status)? = object["status"] {
                    audioOK = status == "ok"
                }
            default:
                break
            }
        }

        public var json: [UInt8] {
            JSONValue.object(JSONObject([
                ("status", .string("ok")),
                ("mqtt", .string(mqttConnected ? "connected" : "disconnected")),
                ("audio", .string(audioOK ? "ok" : "unavailable")),
            ])).bytes
        }
    }
}
