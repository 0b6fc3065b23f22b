/// `<state_dir>/settings.json`: the values changed from the web app, `{"version": 1, "values":
/// {key: value}}`. The node's configuration loader reads and checks them (`WebSettings`); the
/// core only carries the file through backups, whole.
public enum SettingsFile {
    public static let name = "settings.json"
    public static let version = 1

    /// With `setupDone`, `"setup_done": true` beside the values (http-api v1.4: the first-start
    /// wizard was finished once, `POST /api/setup/done`).
    public static func document(_ values: JSONObject, setupDone: Bool = false) -> JSONValue {
        .object(JSONObject([("version", .int(Int64(version))), ("values", .object(values))]
            + (setupDone ? [("setup_done", JSONValue.bool(true))] : [])))
    }

    /// Whether a settings document says the first-start wizard was finished.
    public static func setupDone(_ document: JSONValue?) -> Bool {
        document?["setup_done"] == .bool(true)
    }

    /// The values of a settings document (empty for none, or one of another version).
    public static func values(_ document: JSONValue?) -> JSONObject {
        guard document?["version"]?.intValue == version else { return JSONObject() }
        return document?["values"]?.objectValue ?? JSONObject()
    }
}
