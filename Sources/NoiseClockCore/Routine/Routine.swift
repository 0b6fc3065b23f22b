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
        return object
    }

    public var json: JSONValue { .object(jsonObject) }

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
