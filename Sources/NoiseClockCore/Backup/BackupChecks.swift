/// Each entry of a backup checked as the node's own commands check it (`alarms/set`,
/// `routines/set`, `timer/presets/set`, `mix/set`, `station/add`, `style/set`, `noise/set`), with sounds taken
/// as the state files take them (the catalog of the node restored to may not have them yet),
/// and every refusal naming its place: `alarms[3].time` (indexes from 0).
enum BackupChecks {
    static func alarms(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        try eachWithItsOwnID(value, name, limit: AlarmBook.limit) { (item, path) throws(BackupRefusal) -> String in
            let fields = try object(item, path)
            guard fields["id"] != nil else { throw BackupRefusal(path + ".id", "id is required: a restored alarm keeps its id") }
            do throws(CommandError) { return try Alarm.parseNew(fields, newID: "", catalog: .empty).id } catch { throw .item(path, error) }
        }
    }

    static func pausedUntil(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        guard value.isNull || value.stringValue.flatMap(CivilDate.init(iso:)) != nil else {
            throw BackupRefusal(name, "must be a calendar day YYYY-MM-DD, or null")
        }
    }

    static func routines(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        try eachWithItsOwnID(value, name, limit: Routine.limit) { (item, path) throws(BackupRefusal) -> String in
            var fields = try object(item, path)
            guard let id = fields["id"]?.stringValue, Alarm.isValidID(id) else {
                throw BackupRefusal(path + ".id", "id is required: 1–64 letters, digits, - or _")
            }
            // As the state file takes it: a mix's id is a sound too, known once the mixes are.
            if let sound = fields["sound"] {
                guard let text = sound.stringValue, text == "none" || SoundID.isValid(text) else {
                    throw BackupRefusal(path + ".sound", "sound must be a sound id or \"none\"")
                }
                fields["sound"] = nil
            }
            do throws(CommandError) { _ = try Routine.parseNew(fields, newID: id, catalog: .empty) } catch { throw .item(path, error) }
            return id
        }
    }

    static func timerPresets(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        try eachWithItsOwnID(value, name, limit: TimerPreset.limit) { (item, path) throws(BackupRefusal) -> String in
            do throws(CommandError) { return try TimerPreset.parse(item, catalog: .empty).id } catch { throw .item(path, error) }
        }
    }

    static func mixes(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        try eachWithItsOwnID(value, name, limit: Mix.limit) { (item, path) throws(BackupRefusal) -> String in
            let fields = try object(item, path)
            do throws(CommandError) {
                try ProgrammeFields.rejectUnknown(fields, known: ["id", "name", "layers"], ignored: [])
            } catch { throw .item(path, error) }
            guard let id = fields["id"]?.stringValue, Alarm.isValidID(id), SoundID.isValid(id) else {
                throw BackupRefusal(path + ".id", "id must be 1–64 lower-case letters, digits, - or _")
            }
            guard let nameValue = fields["name"] else { throw BackupRefusal(path + ".name", "name is required") }
            do throws(CommandError) { _ = try ProgrammeFields.text(nameValue, "name", limit: Mix.maxNameLength) } catch { throw .item(path, error) }
            guard let layers = fields["layers"]?.arrayValue, Mix.layerCount.contains(layers.count) else {
                throw BackupRefusal(path + ".layers", "a mix has 2 to 4 layers of {\"sound\", \"volume\"}")
            }
            for (number, layer) in layers.enumerated() {
                let layerPath = "\(path).layers[\(number)]"
                let layerFields = try object(layer, layerPath)
                do throws(CommandError) {
                    try ProgrammeFields.rejectUnknown(layerFields, known: ["sound", "volume"], ignored: [])
                } catch { throw .item(layerPath, error) }
                guard let sound = layerFields["sound"]?.stringValue, SoundID.isValid(sound) else {
                    throw BackupRefusal(layerPath + ".sound", "sound must be a sound id")
                }
                guard let volume = layerFields["volume"] else { throw BackupRefusal(layerPath + ".volume", "volume is required") }
                do throws(CommandError) {
                    _ = try FieldCheck.integer(volume, "volume", in: FieldCheck.percent)
                } catch { throw .item(layerPath, error) }
            }
            return id
        }
    }

    static func style(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        let fields = try object(value, name)
        do { _ = try ClockStyle.defaults.merging(fields) } catch { throw .item(name, error) }
    }

    static func noise(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        let fields = try object(value, name)
        for (key, field) in fields.pairs {
            let path = "\(name).\(key)"
            switch key {
            case "playing":
                guard field.boolValue != nil else { throw BackupRefusal(path, "playing must be true or false") }
            case "sound":
                guard let sound = field.stringValue, SoundID.isValid(sound) else { throw BackupRefusal(path, "sound must be a sound id") }
            case "volume":
                do { _ = try FieldCheck.integer(field, "volume", in: NoiseState.volumeRange) } catch { throw .item(name, error) }
            case "sleep_timer_minutes", "stops_at_ms":
                guard field.isNull || (field.intValue ?? -1) >= 0 else { throw BackupRefusal(path, "\(key) must be a whole number ≥ 0, or null") }
            case "routine":
                guard field.isNull || field.stringValue.map(Alarm.isValidID) == true else {
                    throw BackupRefusal(path, "routine must be a routine id, or null")
                }
            default:
                throw BackupRefusal(path, "unknown field \"\(key.prefix(64))\"")
            }
        }
    }

    // MARK: Shapes

    /// A list of items that each keep their id (`alarms`, `routines`, ...): `check` reads the item
    /// at its place (`alarms[3]`) and gives its id, and an id given twice is refused there.
    static func eachWithItsOwnID(
        _ value: JSONValue, _ name: String, limit: Int, _ check: (JSONValue, String) throws(BackupRefusal) -> String
    ) throws(BackupRefusal) {
        var ids = Set<String>()
        for (index, item) in try list(value, name, limit: limit).enumerated() {
            let path = "\(name)[\(index)]"
            let id = try check(item, path)
            guard ids.insert(id).inserted else { throw BackupRefusal(path + ".id", "id \(id) appears twice") }
        }
    }

    static func list(_ value: JSONValue, _ name: String, limit: Int) throws(BackupRefusal) -> [JSONValue] {
        guard let items = value.arrayValue else { throw BackupRefusal(name, "must be a list, got \(value.typeName)") }
        guard items.count <= limit else { throw BackupRefusal(name, "\(items.count) given; a node keeps at most \(limit)") }
        return items
    }

    static func object(_ value: JSONValue, _ path: String) throws(BackupRefusal) -> JSONObject {
        guard let fields = value.objectValue else { throw BackupRefusal(path, "must be a JSON object, got \(value.typeName)") }
        return fields
    }
}
