/// Input parsing for `routine/add`, `routine/update` and `routines/set`: every field checked,
/// every refusal an `invalid_field` naming the field (or `unknown_sound`).
extension Routine {
    static let knownKeys: Set<String> = [
        "id", "label", "enabled", "start", "repeat", "end", "duration_minutes", "sound", "volume",
        "fade_in_seconds", "fade_out_seconds", "light", "face",
    ]
    /// Output-only fields a client may send back unchanged (replaying `~/routines`).
    static let ignoredKeys: Set<String> = ["active", "next_start", "ends_at", "repeat_text", "request_id"]

    /// A new routine; `start` is required, everything else has a default.
    public static func parseNew(_ object: JSONObject, newID: String, catalog: SoundCatalog) throws(CommandError) -> Routine {
        guard object["start"] != nil else { throw .invalidField("start", "start is required, e.g. \"22:30\"") }
        var id = newID
        if let given = object["id"] { id = try Alarm.parseID(given) }
        var routine = Routine(id: id, start: AlarmTime(hour: 0, minute: 0))
        try routine.apply(object, catalog: catalog)
        return routine
    }

    /// This routine with the given fields changed (`id` must match if present).
    public func merging(_ object: JSONObject, catalog: SoundCatalog) throws(CommandError) -> Routine {
        if let given = object["id"], try Alarm.parseID(given) != id { throw .invalidField("id", "id cannot be changed") }
        var routine = self
        try routine.apply(object, catalog: catalog)
        return routine
    }

    private mutating func apply(_ object: JSONObject, catalog: SoundCatalog) throws(CommandError) {
        try ProgrammeFields.rejectUnknown(object, known: Self.knownKeys, ignored: Self.ignoredKeys)
        // `null` means "not given". (`Optional.none`, not `nil`: JSONValue takes the nil literal
        // as JSON null, which would count as given.)
        let end = object["end"].flatMap { $0.isNull ? Optional.none : $0 }
        let duration = object["duration_minutes"].flatMap { $0.isNull ? Optional.none : $0 }
        if end != nil, duration != nil {
            throw .invalidField("end", "give either end or duration_minutes, not both")
        }
        for (key, value) in object.pairs {
            switch key {
            case "label": label = try ProgrammeFields.text(value, key, limit: Self.maxLabelLength)
            case "enabled": enabled = try ProgrammeFields.bool(value, key)
            case "start": start = try ProgrammeFields.time(value, key)
            case "repeat": repeatDays = try AlarmRepeat(parsing: value)
            case "sound": sound = value.stringValue == "none" ? "none" : try ProgrammeFields.noiseSound(value, catalog: catalog)
            case "light": light = try Self.parseLight(value)
            case "face": face = try Self.parseFace(value)
            case "volume": volume = try FieldCheck.integer(value, key, in: FieldCheck.percent)
            case "fade_in_seconds": fadeInSeconds = try FieldCheck.integer(value, key, in: Self.fadeRange)
            case "fade_out_seconds": fadeOutSeconds = try FieldCheck.integer(value, key, in: Self.fadeRange)
            default: break
            }
        }
        if let end { ending = .at(try ProgrammeFields.time(end, "end")) }
        if let duration { ending = .after(minutes: try FieldCheck.integer(duration, "duration_minutes", in: Self.durationRange)) }
    }

    /// `{"brightness", "kelvin" | "color"}` or null.
    static func parseLight(_ value: JSONValue) throws(CommandError) -> LightLevel? {
        if value.isNull { return nil }
        guard let object = value.objectValue else { throw .invalidField("light", "light must be {\"brightness\", \"kelvin\" | \"color\"} or null") }
        for key in object.keys where !["brightness", "kelvin", "color"].contains(key) {
            throw .invalidField("light", "unknown light field \"\(key.prefix(64))\"")
        }
        guard let brightness = object["brightness"] else { throw .invalidField("light", "light needs brightness (1–100)") }
        var level = LightLevel(on: true, brightness: try FieldCheck.integer(brightness, "light", in: 1...100))
        if object["kelvin"] != nil, object["color"] != nil { throw .invalidField("light", "light takes kelvin or color, not both") }
        if let kelvin = object["kelvin"] { level.kelvin = try FieldCheck.integer(kelvin, "light", in: LightLevel.kelvinRange) }
        if let color = object["color"] {
            guard let text = color.stringValue, let rgb = RGBColor(hex: text) else { throw .invalidField("light", "light color must be \"#RRGGBB\"") }
            level.color = rgb
        }
        return level
    }

    /// ClockStyle fields (checked as `style/set` checks them) or null.
    static func parseFace(_ value: JSONValue) throws(CommandError) -> Face? {
        if value.isNull { return nil }
        guard let object = value.objectValue, !object.isEmpty else { throw .invalidField("face", "face must be an object of ClockStyle fields, or null") }
        do {
            _ = try ClockStyle.defaults.merging(object)
        } catch {
            throw .invalidField("face", "face: \(error.message)")
        }
        return Face(fields: object)
    }

    /// Reads a stored routine (sounds were checked when it was stored; the catalog may lack mixes yet).
    static func restored(_ value: JSONValue) -> Routine? {
        guard var object = value.objectValue, let id = object["id"]?.stringValue, Alarm.isValidID(id) else { return nil }
        let sound = object["sound"]?.stringValue
        object["sound"] = nil
        object["pending"] = nil
        guard var routine = try? parseNew(object, newID: id, catalog: .empty) else { return nil }
        if let sound, sound == "none" || SoundID.isValid(sound) { routine.sound = sound }
        return routine
    }
}
