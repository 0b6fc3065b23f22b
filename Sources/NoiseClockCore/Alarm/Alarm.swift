/// One alarm, as the contract defines it. Values are always valid: they only come from the
/// parser (`Alarm+Parsing.swift`), which enforces every limit.
public struct Alarm: Hashable, Sendable {
    public var id: String
    public var time: AlarmTime
    public var enabled = true
    public var label = "Alarm"
    public var description = ""
    public var repeatDays = AlarmRepeat.once
    /// A one-time alarm on that day (only when `repeatDays` is empty).
    public var date: CivilDate?
    public var sound: String
    public var volume = 80
    public var vibrate = false
    public var snoozeMinutes = 9
    public var rampSeconds = 30
    public var ringMinutes = 10
    public var preAlarmMinutes = 0
    public var skipNext = false
    /// The wake curve's first volume: the ramp rises from here, not from silence.
    public var startVolume = 0
    /// A noise (or mix) that rises over the pre-alarm minutes before the alarm sound takes over.
    public var preAlarmSound = "none"
    /// Days this alarm does not ring, ascending, none in the past (the feature drops those).
    public var skipDates: [CivilDate] = []
    /// Minutes of sunrise on `devices.light` before the alarm (0: none).
    public var lightMinutes = 0
    /// v1.2 alarm groups: snoozing or dismissing it on one node does the same on every node
    /// whose alarm of this group rings (`{base}/groups/<group>/ring`).
    public var group: String?
    /// v1.2: when it starts sounding, and each time it rings again after a snooze, the node
    /// says the time and this alarm's label over it (`speech:`).
    public var speakTime = false

    public init(id: String, time: AlarmTime, sound: String) {
        self.id = id
        self.time = time
        self.sound = sound
    }

    public static let maxLabelLength = 64
    public static let maxDescriptionLength = 256
    public static let allowedSnoozeMinutes = [5, 7, 8, 9, 10, 15, 20]
    public static let maxRampSeconds = 3600
    public static let maxSkipDates = 50

    /// Rings once (on its date, or at the next `time`) rather than on weekdays.
    public var isOneTime: Bool { repeatDays.isOnce }

    /// The sound a new alarm gets when none is given: the catalog's first alarm sound.
    public static func defaultSound(in catalog: SoundCatalog) -> String { catalog.alarm.first?.id ?? "classic" }

    /// The stored fields in contract order (what the state file and `alarm/add`'s result hold).
    public var json: JSONValue { .object(jsonObject) }

    var jsonObject: JSONObject {
        JSONObject([
            ("id", .string(id)),
            ("time", .string(time.description)),
            ("enabled", .bool(enabled)),
            ("label", .string(label)),
            ("description", .string(description)),
            ("repeat", repeatDays.json),
            ("date", .optional(date?.description)),
            ("sound", .string(sound)),
            ("volume", .int(Int64(volume))),
            ("vibrate", .bool(vibrate)),
            ("snooze_minutes", .int(Int64(snoozeMinutes))),
            ("ramp_seconds", .int(Int64(rampSeconds))),
            ("ring_minutes", .int(Int64(ringMinutes))),
            ("pre_alarm_minutes", .int(Int64(preAlarmMinutes))),
            ("skip_next", .bool(skipNext)),
            ("start_volume", .int(Int64(startVolume))),
            ("pre_alarm_sound", .string(preAlarmSound)),
            ("skip_dates", .array(skipDates.map { .string($0.description) })),
            ("light_minutes", .int(Int64(lightMinutes))),
            ("group", .optional(group)),
            ("speak_time", .bool(speakTime)),
        ])
    }

    /// The published form: stored fields plus `next_trigger` and `repeat_text`.
    public func output(nextTrigger: Instant?, zone: ZoneRules, locale: NodeLocale) -> JSONValue {
        var object = jsonObject
        object["next_trigger"] = ISO8601.json(nextTrigger, in: zone)
        object["repeat_text"] = .string(repeatDays.text(locale))
        return .object(object)
    }
}
