/// Input parsing for `alarm/add`, `alarm/update` and `alarms/set`: every field checked, every
/// refusal an `invalid_field` naming the field (or `unknown_sound`).
extension Alarm {
    /// Output-only fields a client may send back unchanged (e.g. replaying `~/alarms` into
    /// `alarms/set`); they are ignored. `request_id` belongs to the command envelope.
    static let ignoredKeys: Set<String> = ["next_trigger", "repeat_text", "request_id"]
    static let knownKeys: Set<String> = [
        "id", "time", "enabled", "label", "description", "repeat", "date", "sound", "volume", "vibrate",
        "snooze_minutes", "ramp_seconds", "ring_minutes", "pre_alarm_minutes", "skip_next",
        "start_volume", "pre_alarm_sound", "skip_dates", "light_minutes", "group", "speak_time",
    ]

    /// A new alarm from a full description; `time` is required, everything else has a default.
    /// `id` is used when given (it must be a valid id), else `newID`.
    public static func parseNew(_ object: JSONObject, newID: String, catalog: SoundCatalog) throws(CommandError) -> Alarm {
        guard object["time"] != nil else { throw .invalidField("time", "time is required, e.g. \"07:30\"") }
        var id = newID
        if let given = object["id"] { id = try parseID(given) }
        var alarm = Alarm(id: id, time: AlarmTime(hour: 0, minute: 0), sound: defaultSound(in: catalog))
        try alarm.apply(object, catalog: catalog)
        return alarm
    }

    /// This alarm with the given fields changed (`id` must match if present).
    public func merging(_ object: JSONObject, catalog: SoundCatalog) throws(CommandError) -> Alarm {
        if let given = object["id"], try Alarm.parseID(given) != id {
            throw .invalidField("id", "id cannot be changed")
        }
        var alarm = self
        try alarm.apply(object, catalog: catalog)
        return alarm
    }

    /// An alarm id: 1–64 characters of letters, digits, `-` and `_`.
    public static func parseID(_ value: JSONValue) throws(CommandError) -> String {
        guard let text = value.stringValue else { throw .invalidField("id", "id must be a string, got \(value.typeName)") }
        guard isValidID(text) else { throw .invalidField("id", "id must be 1–64 letters, digits, - or _") }
        return text
    }

    public static func isValidID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    private mutating func apply(_ object: JSONObject, catalog: SoundCatalog) throws(CommandError) {
        for key in object.keys where !Alarm.knownKeys.contains(key) && !Alarm.ignoredKeys.contains(key) {
            throw .invalidField(String(key.prefix(64)), "unknown field \"\(key.prefix(64))\"")
        }
        for (key, value) in object.pairs {
            switch key {
            case "time":
                guard let text = value.stringValue, let parsed = AlarmTime(parsing: text) else {
                    throw .invalidField("time", "time must look like \"07:30\", \"7:30 AM\" or \"오전 7:30\"")
                }
                time = parsed
            case "enabled": enabled = try Alarm.bool(value, key)
            case "vibrate": vibrate = try Alarm.bool(value, key)
            case "skip_next": skipNext = try Alarm.bool(value, key)
            case "speak_time": speakTime = try Alarm.bool(value, key)
            case "label":
                label = try Alarm.text(value, key, limit: Alarm.maxLabelLength)
            case "description":
                description = try Alarm.text(value, key, limit: Alarm.maxDescriptionLength)
            case "repeat": repeatDays = try AlarmRepeat(parsing: value)
            case "date":
                if value.isNull {
                    date = nil
                } else {
                    guard let text = value.stringValue, let parsed = CivilDate(iso: text) else {
                        throw .invalidField("date", "date must be a calendar day YYYY-MM-DD, or null")
                    }
                    date = parsed
                }
            case "sound": sound = try Alarm.parseSound(value, catalog: catalog)
            case "volume": volume = try Alarm.int(value, key, in: 0...100)
            case "snooze_minutes":
                snoozeMinutes = try Alarm.parseSnoozeMinutes(value, field: key)
            case "ramp_seconds": rampSeconds = try Alarm.int(value, key, in: 0...Alarm.maxRampSeconds)
            case "ring_minutes": ringMinutes = try Alarm.int(value, key, in: 1...60)
            case "pre_alarm_minutes": preAlarmMinutes = try Alarm.int(value, key, in: 0...120)
            case "start_volume": startVolume = try Alarm.int(value, key, in: FieldCheck.percent)
            case "pre_alarm_sound": preAlarmSound = try Alarm.parsePreAlarmSound(value, catalog: catalog)
            case "skip_dates": skipDates = try Alarm.parseSkipDates(value)
            case "light_minutes": lightMinutes = try Alarm.int(value, key, in: 0...60)
            case "group": group = try Alarm.parseGroup(value)
            default: break
            }
        }
        if date != nil, !repeatDays.isOnce {
            throw .invalidField("date", "date is for one-time alarms; remove it or set repeat to never")
        }
        if preAlarmSound != "none", preAlarmMinutes == 0 {
            throw .invalidField("pre_alarm_sound", "pre_alarm_sound needs pre_alarm_minutes above 0")
        }
        if skipNext, repeatDays.isOnce {
            // Turning a repeating alarm into a one-time one drops a pending skip.
            if object["skip_next"] == nil { skipNext = false; return }
            throw .invalidField("skip_next", "only a repeating alarm can skip its next occurrence")
        }
    }

    /// One of 5, 7, 8, 9, 10, 15, 20.
    static func parseSnoozeMinutes(_ value: JSONValue, field: String) throws(CommandError) -> Int {
        let minutes: Int? = value.intValue ?? value.stringValue.flatMap { Int($0.trimmingWhitespace()) }
        guard let minutes, allowedSnoozeMinutes.contains(minutes) else {
            throw .invalidField(field, "\(field) must be one of 5, 7, 8, 9, 10, 15, 20")
        }
        return minutes
    }

    static func parseSound(_ value: JSONValue, catalog: SoundCatalog) throws(CommandError) -> String {
        guard let id = value.stringValue else { throw .invalidField("sound", "sound must be a sound id string, got \(value.typeName)") }
        if id == "none" || catalog.hasAlarm(id) { return id }
        // A backup is checked before the catalog is known: any valid id is kept (a station's `radio:<id>` too).
        if catalog.alarm.isEmpty, SoundID.isValid(id) { return id }
        throw CommandError(.unknownSound, field: "sound", "no alarm sound \"\(id.prefix(64))\" (see ~/sounds, or use \"none\")")
    }

    private static func bool(_ value: JSONValue, _ key: String) throws(CommandError) -> Bool {
        guard let flag = value.boolValue else { throw .invalidField(key, "\(key) must be true or false, got \(value.typeName)") }
        return flag
    }

    private static func int(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        try FieldCheck.integer(value, key, in: range)
    }

    private static func text(_ value: JSONValue, _ key: String, limit: Int) throws(CommandError) -> String {
        guard let text = value.stringValue else { throw .invalidField(key, "\(key) must be a string, got \(value.typeName)") }
        try TextLength(atMost: limit).check(text, key)
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField(key, "\(key) must not contain control characters")
        }
        return text
    }
}
