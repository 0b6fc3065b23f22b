/// Reading `buttons:` entries (the configuration file's YAML, or JSON from the environment, both
/// as a JSONValue). Every problem names the field it is in.
extension ButtonDefinition {
    public struct ParseError: Error, Equatable, Sendable {
        /// Relative to the entry: `input.key`, `press`, ...; empty for the entry itself.
        public var field: String
        public var message: String

        public init(_ field: String, _ message: String) {
            self.field = field
            self.message = message
        }
    }

    public init(json: JSONValue) throws(ParseError) {
        guard let object = json.objectValue else { throw ParseError("", "expected a mapping (id, input or mqtt, press, double, hold)") }
        let known: Set<String> = ["id", "input", "mqtt", "press", "double", "hold"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ParseError(unknown, "unknown key (known keys here: \(known.sorted().joined(separator: ", ")))")
        }
        guard let id = object["id"]?.stringValue else { throw ParseError("id", "must be set: [a-z0-9_-], 1–32 characters") }
        guard TextLength(1...32).measure(id) != nil, id.utf8.allSatisfy(Self.isIDByte) else {
            throw ParseError("id", "must be [a-z0-9_-], 1–32 characters, got \"\(id)\"")
        }
        let source: Source
        switch (object["input"], object["mqtt"]) {
        case (let input?, nil) where !input.isNull: source = try Self.input(input)
        case (nil, let mqtt?) where !mqtt.isNull: source = .mqtt(try Self.mqtt(mqtt))
        case (nil, nil): throw ParseError("", "needs `input` (a local device) or `mqtt` (a button reporting over MQTT)")
        default: throw ParseError("", "takes `input` or `mqtt`, not both")
        }
        self.init(
            id: id, source: source, press: try Self.action(object["press"], "press", .defaultPress),
            double: try Self.action(object["double"], "double", .defaultDouble), hold: try Self.action(object["hold"], "hold", .defaultHold))
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
    }

    private static func input(_ json: JSONValue) throws(ParseError) -> Source {
        guard let object = json.objectValue else { throw ParseError("input", "expected a mapping (device, key)") }
        if let unknown = object.keys.first(where: { $0 != "device" && $0 != "key" }) {
            throw ParseError("input.\(unknown)", "unknown key (known keys here: device, key)")
        }
        guard let device = object["device"]?.stringValue, !device.isEmpty else {
            throw ParseError("input.device", "must be set: the input device's path (/dev/input/by-path/...)")
        }
        if let problem = PathText.problem(device) { throw ParseError("input.device", problem) }
        let keyText: String? = object["key"]?.stringValue ?? object["key"]?.intValue.map(String.init)
        guard let keyText else { throw ParseError("input.key", "must be set: a KEY_*/BTN_* name or its number") }
        guard let key = InputKey(keyText) else {
            throw ParseError("input.key", "\"\(keyText)\" is not a KEY_*/BTN_* name of linux/input-event-codes.h nor a code below 768")
        }
        return .input(device: device, key: key)
    }

    private static func mqtt(_ json: JSONValue) throws(ParseError) -> MQTTButtonSource {
        guard let object = json.objectValue else { throw ParseError("mqtt", "expected a mapping (topic, field, press, double, hold)") }
        let known: Set<String> = ["topic", "field", "press", "double", "hold"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ParseError("mqtt.\(unknown)", "unknown key (known keys here: \(known.sorted().joined(separator: ", ")))")
        }
        guard let topic = object["topic"]?.stringValue, !topic.isEmpty, !topic.contains("+"), !topic.contains("#") else {
            throw ParseError("mqtt.topic", "must be set: the topic the button's bridge publishes on, without + or #")
        }
        var field: String?
        if let given = object["field"], !given.isNull {
            guard let text = given.stringValue, !text.isEmpty else { throw ParseError("mqtt.field", "must be a JSON field name") }
            field = text
        }
        var values = MQTTButtonSource.defaultValues
        for gesture in ButtonGesture.allCases {
            guard let given = object[gesture.rawValue], !given.isNull else { continue }
            guard let text = given.stringValue ?? given.intValue.map(String.init), !text.isEmpty else {
                throw ParseError("mqtt.\(gesture.rawValue)", "must be the payload value that means \(gesture.rawValue)")
            }
            values[gesture] = text
        }
        if Set(values.values).count < values.count {
            throw ParseError("mqtt", "press, double and hold need three different values, got \(ButtonGesture.allCases.map { values[$0] ?? "" })")
        }
        return MQTTButtonSource(topic: topic, field: field, values: values)
    }

    private static func action(_ json: JSONValue?, _ field: String, _ fallback: ButtonAction) throws(ParseError) -> ButtonAction {
        guard let json, !json.isNull else { return fallback }
        if let text = json.stringValue {
            guard let action = ButtonAction(text) else {
                throw ParseError(field, "unknown action \"\(text)\" (snooze_or_speak, snooze, dismiss, speak_time, speak_next_alarm, "
                    + "noise_toggle, volume_up, volume_down, light_toggle, routine_toggle, timer:<preset id>, none, or {command, payload})")
            }
            return action
        }
        guard let object = json.objectValue else { throw ParseError(field, "expected an action name or {command, payload}") }
        if let unknown = object.keys.first(where: { $0 != "command" && $0 != "payload" }) {
            throw ParseError("\(field).\(unknown)", "unknown key (known keys here: command, payload)")
        }
        guard let command = object["command"]?.stringValue, CommandTopic(rawValue: command) != nil else {
            throw ParseError("\(field).command", "must be a command topic suffix (noise/set, alarm/snooze, ...)")
        }
        let payload: String
        switch object["payload"] {
        case nil, .null?: payload = ""
        case .string(let text)?: payload = text
        case let other?: payload = other.serialized
        }
        return .command(command, payload: payload)
    }
}
