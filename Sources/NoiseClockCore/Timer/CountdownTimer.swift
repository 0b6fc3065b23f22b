/// One running timer (a nap, a countdown). Its end is an absolute instant, so it survives restarts.
public struct CountdownTimer: Hashable, Sendable {
    public var id: String
    public var label: String
    public var seconds: Int
    /// An alarm sound id, or `none` (the timer only reports `finished`).
    public var sound: String
    public var startedAt: Instant
    public var endsAt: Instant
    /// Rings `devices.shaker` too while it rings (v1.2, `timer/start` `vibrate`).
    public var vibrate = false

    public static let limit = 10
    public static let secondsRange = 1...86_400
    public static let minutesRange = 1...1440
    public static let defaultLabel = "Timer"
    /// The sound a timer rings with when neither it nor its preset names one.
    public static let defaultSound = "chime"
    /// How long a finished timer rings before it times out.
    public static let ringMinutes = 1

    public func json(zone: ZoneRules) -> JSONValue {
        .object(JSONObject([
            ("id", .string(id)),
            ("label", .string(label)),
            ("seconds", .int(Int64(seconds))),
            ("sound", .string(sound)),
            ("started_at", .string(ISO8601.string(startedAt, in: zone))),
            ("ends_at", .string(ISO8601.string(endsAt, in: zone))),
            ("vibrate", .bool(vibrate)),
        ]))
    }

    /// The alarm the ring cycle rings for this timer: its id, label and sound, ringing at most a minute.
    public var ringAlarm: Alarm {
        var alarm = Alarm(id: id, time: AlarmTime(hour: 0, minute: 0), sound: sound)
        alarm.label = label
        alarm.ringMinutes = Self.ringMinutes
        // A chime is meant to be heard at once, not to rise like a wake-up.
        alarm.rampSeconds = 0
        alarm.vibrate = vibrate
        return alarm
    }
}

/// A named timer length for one-tap starts (`timer/start {"preset": "nap"}`, a Home Assistant button).
public struct TimerPreset: Hashable, Sendable {
    public var id: String
    public var label: String
    public var minutes: Int
    public var sound: String

    public static let limit = 10

    public static let defaults = [
        TimerPreset(id: "nap", label: "Nap", minutes: 20, sound: CountdownTimer.defaultSound),
        TimerPreset(id: "power_nap", label: "Power nap", minutes: 10, sound: CountdownTimer.defaultSound),
        TimerPreset(id: "rest", label: "Rest", minutes: 45, sound: CountdownTimer.defaultSound),
    ]

    public var json: JSONValue {
        .object(JSONObject([("id", .string(id)), ("label", .string(label)), ("minutes", .int(Int64(minutes))), ("sound", .string(sound))]))
    }

    static func parse(_ value: JSONValue, catalog: SoundCatalog) throws(CommandError) -> TimerPreset {
        guard let object = value.objectValue else { throw CommandError(.invalidJSON, "a preset must be a JSON object, got \(value.typeName)") }
        try ProgrammeFields.rejectUnknown(object, known: ["id", "label", "minutes", "sound"], ignored: [])
        guard let idValue = object["id"] else { throw .invalidField("id", "id is required") }
        let id = try Alarm.parseID(idValue)
        guard let minutesValue = object["minutes"] else { throw .invalidField("minutes", "minutes is required") }
        let minutes = try FieldCheck.integer(minutesValue, "minutes", in: CountdownTimer.minutesRange)
        let label = try object["label"].map { value throws(CommandError) in try ProgrammeFields.text(value, "label", limit: Alarm.maxLabelLength) } ?? id
        let sound = try object["sound"].map { value throws(CommandError) in try Alarm.parseSound(value, catalog: catalog) } ?? CountdownTimer.defaultSound
        return TimerPreset(id: id, label: label, minutes: minutes, sound: sound)
    }
}
