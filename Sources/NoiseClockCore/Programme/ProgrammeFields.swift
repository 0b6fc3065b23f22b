/// Field checks shared by routines, timers and mixes, worded like the alarms' so every refusal
/// reads the same (`label must be a string, got number`).
enum ProgrammeFields {
    static func bool(_ value: JSONValue, _ key: String) throws(CommandError) -> Bool {
        guard let flag = value.boolValue else { throw .invalidField(key, "\(key) must be true or false, got \(value.typeName)") }
        return flag
    }

    /// Display text: at most `limit` characters, no control characters.
    static func text(_ value: JSONValue, _ key: String, limit: Int) throws(CommandError) -> String {
        guard let text = value.stringValue else { throw .invalidField(key, "\(key) must be a string, got \(value.typeName)") }
        try TextLength(atMost: limit).check(text, key)
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField(key, "\(key) must not contain control characters")
        }
        return text
    }

    /// A wall-clock time in any form an alarm's `time` takes.
    static func time(_ value: JSONValue, _ key: String) throws(CommandError) -> AlarmTime {
        guard let text = value.stringValue, let parsed = AlarmTime(parsing: text) else {
            throw .invalidField(key, "\(key) must look like \"22:30\", \"10:30 PM\" or \"오후 10:30\"")
        }
        return parsed
    }

    /// A noise sound or mix id from the catalog (which holds the mixes).
    static func noiseSound(_ value: JSONValue, catalog: SoundCatalog) throws(CommandError) -> String {
        guard let id = value.stringValue?.lowercased() else { throw .invalidField("sound", "sound must be a sound id string, got \(value.typeName)") }
        guard catalog.hasNoise(id) else {
            throw CommandError(.unknownSound, field: "sound", "no noise sound or mix \"\(id.prefix(64))\"; see ~/sounds")
        }
        return id
    }

    /// Refuses keys outside `known` (output-only keys in `ignored` pass unread).
    static func rejectUnknown(_ object: JSONObject, known: Set<String>, ignored: Set<String>) throws(CommandError) {
        for key in object.keys where !known.contains(key) && !ignored.contains(key) {
            throw .invalidField(String(key.prefix(64)), "unknown field \"\(key.prefix(64))\"")
        }
    }
}
