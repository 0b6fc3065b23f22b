/// `light/set`: `ON`, `OFF`, `TOGGLE`, or `{"state", "brightness", "kelvin" | "color", "transition"}`.
extension LightFeature {
    static let knownKeys: Set<String> = ["state", "brightness", "kelvin", "color", "transition", "request_id"]
    public static let maxTransitionSeconds = 3600

    public typealias Command = LightCommand

    public mutating func apply(
        _ command: LightCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        switch command {
        case .set:
            let (next, transition) = try Self.parse(payload, current: level)
            override()
            show(next, source: next.on ? .command : nil, transition: transition)
            return json
        }
    }

    /// The level a `light/set` payload asks for, from `current`, and its transition in seconds.
    static func parse(_ payload: CommandPayload, current: LightLevel) throws(CommandError) -> (LightLevel, Int) {
        switch payload {
        case .plain(let word):
            return (try switched(word, current: current), 0)
        case .json(.string(let word)):
            return (try switched(word, current: current), 0)
        case .json(.object(let object)):
            for key in object.keys where !knownKeys.contains(key) {
                throw .invalidField(String(key.prefix(64)), "unknown field \"\(key.prefix(64))\"")
            }
            var next = current
            if let state = object["state"] {
                guard let word = state.stringValue else { throw .invalidField("state", "state must be \"ON\", \"OFF\" or \"TOGGLE\"") }
                next = try switched(word, current: current)
            } else {
                next = switched(on: true, current: current)
            }
            if let value = object["brightness"] {
                let brightness = try FieldCheck.integer(value, "brightness", in: 0...100)
                next.brightness = brightness
                if object["state"] == nil { next.on = brightness > 0 }
                if next.on, brightness == 0 { throw .invalidField("brightness", "brightness of a light that is ON is 1–100") }
            }
            if object["kelvin"] != nil, object["color"] != nil {
                throw .invalidField("color", "give kelvin or color, not both")
            }
            if let value = object["kelvin"] {
                next.kelvin = try FieldCheck.integer(value, "kelvin", in: LightLevel.kelvinRange)
                next.color = nil
            }
            if let value = object["color"] {
                guard let text = value.stringValue, let color = RGBColor(hex: text) else {
                    throw .invalidField("color", "color must be \"#RRGGBB\"")
                }
                next.color = color
            }
            var transition = 0
            if let value = object["transition"] { transition = try FieldCheck.integer(value, "transition", in: 0...maxTransitionSeconds) }
            if !next.on { next = LightLevel(on: false, brightness: 0, kelvin: next.kelvin, color: next.color) }
            return (next, transition)
        case .empty:
            throw .invalidField("state", "light/set takes ON, OFF, TOGGLE or a JSON object")
        case .json(let other):
            throw CommandError(.invalidJSON, "light/set takes ON, OFF, TOGGLE or a JSON object, got \(other.typeName)")
        }
    }

    private static func switched(_ word: String, current: LightLevel) throws(CommandError) -> LightLevel {
        switch word.trimmingWhitespace().uppercased() {
        case "ON": return switched(on: true, current: current)
        case "OFF": return switched(on: false, current: current)
        case "TOGGLE": return switched(on: !current.on, current: current)
        default: throw .invalidField("state", "state must be ON, OFF or TOGGLE")
        }
    }

    /// On keeps the brightness it had (full if it was off); off keeps the white or colour.
    private static func switched(on: Bool, current: LightLevel) -> LightLevel {
        guard on else { return LightLevel(on: false, brightness: 0, kelvin: current.kelvin, color: current.color) }
        return LightLevel(on: true, brightness: current.on ? current.brightness : 100, kelvin: current.kelvin, color: current.color)
    }
}

extension LightFeature: NodeFeature {
    public static let stateFile: String? = nil

    /// Its timing is the alarms' sunrises: `NodeCore+Light` follows them after every advance.
    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {}

    public func nextDeadline(context: FeatureContext) -> Instant? { nil }

    public func retained(context: FeatureContext) -> [Publication] {
        [Publication(topic: "light", body: .json(json), retain: true, qos: 1)]
    }

    public var persistent: JSONValue? { nil }
}
