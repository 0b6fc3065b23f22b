/// The layered values, read through this one type: environment over file over defaults (the
/// layering of swift-configuration's `ConfigReader`, kept without the library, which loads
/// Foundation). Errors name the key and, when the value came from there, the variable.
struct ConfigurationValues {
    private let file: [String: ConfigurationValue]
    private let environment: [String: String]

    /// `file` maps dotted paths to values of the key's type; `environment` holds only the
    /// non-empty `NOISECLOCK_*` variables (an empty variable counts as unset).
    init(file: [String: ConfigurationValue], environment: [String: String]) {
        self.file = file
        self.environment = environment
    }

    /// The value of a string key, nil when nothing sets it.
    func string(_ path: String) -> String? {
        let key = ConfigurationSchema.key(path)
        if let raw = environment[key.environmentVariable] { return raw }
        guard case .string(let value)? = fileOrDefault(key) else { return nil }
        return value
    }

    /// A string key with a default: always has a value.
    func requiredString(_ path: String) throws(ConfigurationError) -> String {
        guard let value = string(path) else { throw error(path, "must be set") }
        return value
    }

    /// A variable's text as `Int` reads it (`+5` yes, ` 5` or `0x5` no).
    func integer(_ path: String) throws(ConfigurationError) -> Int {
        let key = ConfigurationSchema.key(path)
        if let raw = environment[key.environmentVariable] {
            guard let value = Int(raw) else { throw conversionError(key) }
            return value
        }
        guard case .integer(let value)? = fileOrDefault(key) else { throw conversionError(key) }
        return value
    }

    /// A variable may say true/false, yes/no or 1/0, in any case.
    func boolean(_ path: String) throws(ConfigurationError) -> Bool {
        let key = ConfigurationSchema.key(path)
        if let raw = environment[key.environmentVariable] {
            switch raw.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw conversionError(key)
            }
        }
        guard case .boolean(let value)? = fileOrDefault(key) else { throw conversionError(key) }
        return value
    }

    /// A list key; its variable is comma-separated (`a.lan, b.lan`; spaces around items dropped).
    func list(_ path: String) -> [String] {
        let key = ConfigurationSchema.key(path)
        if let raw = environment[key.environmentVariable] {
            return raw.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        }
        guard case .list(let value)? = fileOrDefault(key) else { return [] }
        return value
    }

    /// An error for `path`, saying which variable set the value when the environment did.
    func error(_ path: String, _ message: String) -> ConfigurationError {
        let variable = ConfigurationSchema.key(path).environmentVariable
        let suffix = environment[variable] != nil ? " (from \(variable))" : ""
        return ConfigurationError(key: path, message: message + suffix)
    }

    private func fileOrDefault(_ key: ConfigurationKey) -> ConfigurationValue? {
        file[key.path] ?? key.defaultValue
    }

    /// The file's values are already typed, so a conversion failure comes from the environment.
    private func conversionError(_ key: ConfigurationKey) -> ConfigurationError {
        let raw = environment[key.environmentVariable] ?? "?"
        return error(key.path, "expected \(key.kind.expected), got \"\(raw)\"")
    }
}
