/// One routine: noise that starts by itself at `start` on its days and stops at `end` (or after
/// `durationMinutes`), fading in and out. Values are always valid: they come from the parser.
public struct Routine: Hashable, Sendable {
    /// How a routine's window closes: at a wall time (the next one after the start) or after a length.
    public enum Ending: Hashable, Sendable {
        case at(AlarmTime)
        case after(minutes: Int)
    }

    public var id: String
    public var label = "Routine"
    public var enabled = true
    public var start: AlarmTime
    public var repeatDays = AlarmRepeat.daily
    public var ending = Ending.after(minutes: Routine.defaultDurationMinutes)
    public var sound = "brown"
    public var volume = 40
    public var fadeInSeconds = 300
    public var fadeOutSeconds = 300
    /// The light while the routine is active (v1.2), nil: the routine leaves the light alone.
    public var light: LightLevel?
    /// ClockStyle fields shown while the routine is active, restored after (v1.2); nil: none.
    public var face: Face?

    /// A routine's ClockStyle fields, as given (checked by the parser).
    public struct Face: Hashable, Sendable {
        public var fields: JSONObject

        public static func == (lhs: Face, rhs: Face) -> Bool { lhs.fields == rhs.fields }
        public func hash(into hasher: inout Hasher) { hasher.combine(JSONValue.object(fields).serialized) }
    }

    public init(id: String, start: AlarmTime) {
        self.id = id
        self.start = start
    }

    public static let limit = 20
    public static let maxLabelLength = 64
    public static let defaultDurationMinutes = 480
    public static let durationRange = 1...1440
    public static let fadeRange = 0...3600

    /// The stored fields in contract order (state file and command results).
    var jsonObject: JSONObject {
        var object = JSONObject([
            ("id", .string(id)),
            ("label", .string(label)),
            ("enabled", .bool(enabled)),
            ("start", .string(start.description)),
            ("repeat", repeatDays.json),
        ])
        switch ending {
        case .at(let end): object["end"] = .string(end.description)
        case .after(let minutes): object["duration_minutes"] = .int(Int64(minutes))
        }
        object["sound"] = .string(sound)
        object["volume"] = .int(Int64(volume))
        object["fade_in_seconds"] = .int(Int64(fadeInSeconds))
        object["fade_out_seconds"] = .int(Int64(fadeOutSeconds))
        object["light"] = light.map(Self.lightJSON) ?? .null
        object["face"] = face.map { .object($0.fields) } ?? .null
        return object
    }

    public var json: JSONValue { .object(jsonObject) }

    static func lightJSON(_ level: LightLevel) -> JSONValue {
        var object = JSONObject([("brightness", .int(Int64(level.brightness)))])
        if let color = level.color { object["color"] = .string(color.hex) } else if let kelvin = level.kelvin { object["kelvin"] = .int(Int64(kelvin)) }
        return .object(object)
    }

    /// The published form: stored fields plus `active`, `next_start`, `ends_at` and `repeat_text`.
    public func output(active: Bool, nextStart: Instant?, endsAt: Instant?, zone: ZoneRules, locale: NodeLocale) -> JSONValue {
        var object = jsonObject
        object["active"] = .bool(active)
        object["next_start"] = ISO8601.json(nextStart, in: zone)
        object["ends_at"] = ISO8601.json(endsAt, in: zone)
        object["repeat_text"] = .string(repeatDays.text(locale))
        return .object(object)
    }
}
