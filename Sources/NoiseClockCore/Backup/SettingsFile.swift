/// `<state_dir>/settings.json`: the values changed from the web app, `{"version": 1, "values":
/// {key: value}}`. The node's configuration loader reads and checks them (`WebSettings`); the
/// core only carries the file through backups, whole.
public enum SettingsFile {
    public static let name = "settings.json"
    public static let version = 1

    public static func document(_ values: JSONObject) -> JSONValue {
        .object(JSONObject([("version", .int(Int64(version))), ("values", .object(values))]))
    }

    /// The values of a settings document (empty for none, or one of another version).
    public static func values(_ document: JSONValue?) -> JSONObject {
        guard document?["version"]?.intValue == version else { return JSONObject() }
        return document?["values"]?.objectValue ?? JSONObject()
    }
}
