import Configuration

/// The layered values (environment over file over defaults) read through one swift-configuration
/// `ConfigReader`, with errors that name the key and, when it came from there, the variable.
struct ConfigurationValues {
    private let reader: ConfigReader
    private let environment: [String: String]

    /// `environment` holds only the non-empty `NOISECLOCK_*` variables (an empty variable counts as unset).
    init(file: [AbsoluteConfigKey: ConfigValue], filePath: String, environment: [String: String]) {
        self.environment = environment
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: "noiseclock")
        self.reader = ConfigReader(providers: [
            environmentProvider,
            InMemoryProvider(name: filePath, values: file),
            ConfigurationSchema.defaultsProvider,
        ])
    }

    /// The value of a string key, nil when nothing sets it.
    func string(_ path: String) -> String? {
        reader.string(forKey: ConfigKey(path))
    }

    /// A string key with a default: always has a value.
    func requiredString(_ path: String) throws(ConfigurationError) -> String {
        guard let value = string(path) else { throw error(path, "must be set") }
        return value
    }

    func integer(_ path: String) throws(ConfigurationError) -> Int {
        do {
            return try reader.requiredInt(forKey: ConfigKey(path))
        } catch {
            throw conversionError(path)
        }
    }

    func boolean(_ path: String) throws(ConfigurationError) -> Bool {
        do {
            return try reader.requiredBool(forKey: ConfigKey(path))
        } catch {
            throw conversionError(path)
        }
    }

    /// An error for `path`, saying which variable set the value when the environment did.
    func error(_ path: String, _ message: String) -> ConfigurationError {
        let variable = ConfigurationSchema.key(path).environmentVariable
        let suffix = environment[variable] != nil ? " (from \(variable))" : ""
        return ConfigurationError(key: path, message: message + suffix)
    }

    /// The file's values are already typed, so a conversion failure comes from the environment.
    private func conversionError(_ path: String) -> ConfigurationError {
        let key = ConfigurationSchema.key(path)
        let raw = environment[key.environmentVariable] ?? "?"
        return error(path, "expected \(key.kind.expected), got \"\(raw)\"")
    }
}
