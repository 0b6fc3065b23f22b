/// The layered values, read through this one type: environment over the web app's settings
/// (`<state_dir>/settings.json`) over file over defaults (the layering of swift-configuration's
/// `ConfigReader`, kept without the library, which loads Foundation). Errors name the key and,
/// when the value came from there, the variable or the web app.
struct ConfigurationValues {
    private let file: [String: ConfigurationValue]
    private let environment: [String: String]
    private let web: [String: ConfigurationValue]

    /// `file` and `web` map dotted paths to values of the key's type; `environment` holds only
    /// the non-empty `NOISECLOCK_*` variables (an empty variable counts as unset).
    init(file: [String: ConfigurationValue], environment: [String: String], web: [String: ConfigurationValue] = [:]) {
        self.file = file
        self.environment = environment
        self.web = web
    }

    /// Where `key`'s value comes from: `environment`, `web`, `file` or `default`.
    func source(_ key: any AnyConfigurationKey) -> String {
        if environment[key.environmentVariable] != nil { return "environment" }
        if web[key.path] != nil { return "web" }
        return file[key.path] != nil ? "file" : "default"
    }

    /// Whether the file gives `key` (whatever wins over it).
    func inFile(_ key: any AnyConfigurationKey) -> Bool { file[key.path] != nil }

    /// The key's value, checked by the key's own check; nil when nothing sets it and it has no default.
    func value<Value>(_ key: ConfigurationKey<Value>) throws(ConfigurationError) -> Value? {
        let value: Value?
        if let raw = environment[key.environmentVariable] {
            guard let read = Value(environment: raw) else {
                throw error(key, "expected \(Value.kind.expected), got \"\(raw)\"")
            }
            value = read
        } else if let given = web[key.path] ?? file[key.path] {
            // The parser typed the file's value by this key's kind.
            guard let read = Value(given) else { throw error(key, "expected \(Value.kind.expected)") }
            value = read
        } else {
            value = key.defaultValue
        }
        if let value, let message = key.check(value) { throw error(key, message) }
        return value
    }

    /// A key with a default: always has a value.
    func required<Value>(_ key: ConfigurationKey<Value>) throws(ConfigurationError) -> Value {
        guard let value = try value(key) else { throw error(key, "must be set") }
        return value
    }

    /// What an error about a value from `settings.json` ends with.
    static let webSuffix = " (set in the web app)"

    /// An error for `key`, saying which variable set the value when the environment did.
    func error(_ key: any AnyConfigurationKey, _ message: String) -> ConfigurationError {
        error(key, at: key.path, message)
    }

    /// An error for a place inside `key`'s value (`buttons[1].input.key`).
    func error(_ key: any AnyConfigurationKey, at path: String, _ message: String) -> ConfigurationError {
        let variable = key.environmentVariable
        let suffix = environment[variable] != nil ? " (from \(variable))" : web[key.path] != nil ? Self.webSuffix : ""
        return ConfigurationError(key: path, message: message + suffix)
    }
}
