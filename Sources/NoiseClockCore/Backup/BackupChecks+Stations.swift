extension BackupChecks {
    /// `stations` (v1.3, radio): each as `station/add` takes it, with its id; a backup made before
    /// radio has none, and restores with none (`BackupEntry.optional`).
    static func stations(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        try eachWithItsOwnID(value, name, limit: Station.limit) { (item, path) throws(BackupRefusal) -> String in
            let fields = try object(item, path)
            do throws(CommandError) {
                try ProgrammeFields.rejectUnknown(fields, known: Station.fields, ignored: [])
            } catch { throw .item(path, error) }
            guard let idValue = fields["id"] else { throw BackupRefusal(path + ".id", "id is required: a restored station keeps its id") }
            guard let nameValue = fields["name"] else { throw BackupRefusal(path + ".name", "name is required") }
            guard let urlValue = fields["url"] else { throw BackupRefusal(path + ".url", "url is required") }
            do throws(CommandError) {
                let id = try Station.id(idValue)
                _ = try Station.name(nameValue)
                _ = try Station.url(urlValue)
                return id
            } catch { throw .item(path, error) }
        }
    }
}
