extension BackupChecks {
    /// `stations` (v1.3, radio): each as `station/add` takes it, with its id; a backup made before
    /// radio has none, and restores with none (`BackupEntry.optional`).
    static func stations(_ value: JSONValue, _ name: String) throws(BackupRefusal) {
        var ids = Set<String>()
        for (index, item) in try list(value, name, limit: Station.limit).enumerated() {
            let path = "\(name)[\(index)]"
            let fields = try object(item, path)
            do { try ProgrammeFields.rejectUnknown(fields, known: Station.fields, ignored: []) } catch { throw .item(path, error) }
            guard let idValue = fields["id"] else { throw BackupRefusal(path + ".id", "id is required: a restored station keeps its id") }
            guard let nameValue = fields["name"] else { throw BackupRefusal(path + ".name", "name is required") }
            guard let urlValue = fields["url"] else { throw BackupRefusal(path + ".url", "url is required") }
            let id: String
            do {
                id = try Station.id(idValue)
                _ = try Station.name(nameValue)
                _ = try Station.url(urlValue)
            } catch { throw .item(path, error) }
            guard ids.insert(id).inserted else { throw BackupRefusal(path + ".id", "id \(id) appears twice") }
        }
    }
}
