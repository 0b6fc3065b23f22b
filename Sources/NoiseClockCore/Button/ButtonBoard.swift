/// The node's buttons as the machine knows them: their definitions, whether each one's source
/// is there, and what a gesture means right now. Pure: the readers and MQTT bring the facts.
public struct ButtonBoard: Sendable, Equatable {
    public let definitions: [ButtonDefinition]
    /// `button_timing`: the readers' hold and double times.
    public let timing: ButtonTiming
    /// Local devices' status by path; a device not reported yet is `missing` ("not opened yet").
    public internal(set) var devices: [String: DeviceStatus] = [:]

    public struct DeviceStatus: Sendable, Equatable {
        public var connected: Bool
        public var error: String?

        public init(connected: Bool, error: String?) {
            self.connected = connected
            self.error = error
        }
    }

    public init(definitions: [ButtonDefinition] = [], timing: ButtonTiming = ButtonTiming()) {
        self.definitions = definitions
        self.timing = timing
    }

    /// The board for new bindings (the web app's settings): what is known of a device still read is kept.
    public func rebound(_ definitions: [ButtonDefinition], timing: ButtonTiming) -> ButtonBoard {
        var next = ButtonBoard(definitions: definitions, timing: timing)
        let paths = Set(next.panels(timing: timing).map(\.device))
        next.devices = devices.filter { paths.contains($0.key) }
        return next
    }

    /// The topics MQTT buttons report on (subscribed with the commands).
    public var mqttTopics: [String] {
        var seen: Set<String> = []
        return definitions.compactMap { definition in
            guard case .mqtt(let source) = definition.source, seen.insert(source.topic).inserted else { return nil }
            return source.topic
        }
    }

    /// Whether any button reads a local input device (learn mode has something to listen to).
    public var hasInputDevices: Bool {
        definitions.contains { if case .input = $0.source { true } else { false } }
    }

    /// The local devices to read, each with the bindings of its keys.
    public func panels(timing: ButtonTiming) -> [(device: String, panel: ButtonPanel)] {
        var order: [String] = []
        var bindings: [String: [ButtonPanel.Binding]] = [:]
        for definition in definitions {
            guard case .input(let device, let key) = definition.source else { continue }
            if bindings[device] == nil { order.append(device) }
            bindings[device, default: []].append(.init(button: definition.id, key: key, detector: definition.detector(timing: timing)))
        }
        return order.map { ($0, ButtonPanel(bindings: bindings[$0] ?? [])) }
    }

    public mutating func deviceChanged(_ path: String, _ status: DeviceStatus) {
        devices[path] = status
    }

    /// `~/buttons` (retained): every button, its source, status and actions.
    public var retained: Publication {
        let list = definitions.map { definition -> JSONValue in
            let source: String
            var status = "connected"
            var error: String?
            switch definition.source {
            case .input(let device, _):
                source = "input"
                let device = devices[device] ?? DeviceStatus(connected: false, error: "not opened yet")
                if !device.connected { status = "missing" }
                error = device.error
            case .mqtt:
                source = "mqtt"
            }
            // `command:<topic>` names no payload: it is beside, so a page can show all the action does.
            let payloads = ButtonGesture.allCases.compactMap { gesture -> (String, JSONValue)? in
                guard case .command(_, let payload) = definition.action(for: gesture) else { return nil }
                return (gesture.rawValue, .string(payload))
            }
            return [
                "id": .string(definition.id), "source": .string(source), "status": .string(status), "error": .optional(error),
                "press": .string(definition.press.description), "double": .string(definition.double.description),
                "hold": .string(definition.hold.description), "payloads": .object(JSONObject(payloads)),
            ]
        }
        return Publication(topic: "buttons", body: .json(.array(list)), retain: true, qos: 1)
    }

    /// The gestures an MQTT message on `topic` means (for every button on that topic whose
    /// gesture value it carries); none for anything else.
    public func gestures(topic: String, payload: [UInt8]) -> [(button: String, gesture: ButtonGesture)] {
        var found: [(button: String, gesture: ButtonGesture)] = []
        for definition in definitions {
            guard case .mqtt(let source) = definition.source, source.topic == topic else { continue }
            guard let value = Self.value(of: payload, field: source.field) else { continue }
            if let gesture = ButtonGesture.allCases.first(where: { source.values[$0] == value }) {
                found.append((definition.id, gesture))
            }
        }
        return found
    }

    /// The payload's gesture text: a JSON field's string (or number), or the plain payload, trimmed.
    /// A dotted field walks into objects: Tasmota's `{"Button1": {"Action": "SINGLE"}}` is `Button1.Action`.
    private static func value(of payload: [UInt8], field: String?) -> String? {
        guard let field else {
            return String(validating: payload, as: UTF8.self).map { $0.trimmingWhitespace() }
        }
        guard var value = try? JSONParser().parse(payload) else { return nil }
        for name in field.split(separator: ".", omittingEmptySubsequences: false) {
            guard let inner = value.objectValue?[String(name)] else { return nil }
            value = inner
        }
        return value.stringValue ?? value.intValue.map(String.init)
    }

    public func definition(_ id: String) -> ButtonDefinition? {
        definitions.first { $0.id == id }
    }
}
