import Logging
import NoiseClockCore

extension NodeConfiguration {
    /// Loads the configuration: environment `NOISECLOCK_<SECTION>_<KEY>` over the YAML file at `path`
    /// over the defaults, then checks every value.
    ///
    /// - Parameters:
    ///   - environment: the process environment;
    ///     only `NOISECLOCK_*` variables (and `TZDIR`) are read; an empty variable counts as unset.
    ///   - hostName: the default `node_id` source; nil reads this machine's host name.
    /// - Returns: the configuration and the warnings to log.
    /// - Throws: the first problem found, naming its key (exit with `ConfigurationError.exitCode`).
    public static func load(
        path: String,
        environment: [String: String],
        hostName: String? = nil
    ) async throws(ConfigurationError) -> LoadedConfiguration {
        let text: String
        switch ConfigurationFileSystem.readText(path) {
        case .success(let contents): text = contents
        case .failure(let problem): throw ConfigurationError(key: path, message: "cannot read the configuration file: \(problem)")
        }
        let fileValues = try ConfigurationFile.values(fromYAML: text, path: path)

        var warnings: [ConfigurationWarning] = []
        let ours = environment.filter { $0.key.hasPrefix("NOISECLOCK_") && !$0.value.isEmpty }
        // NOISECLOCK_RESOURCES (where sounds.json lives) is read by the sound library, not here.
        let known = Set(ConfigurationSchema.keys.map(\.environmentVariable) + ["NOISECLOCK_RESOURCES", "NOISECLOCK_TEST_CLOCK_FILE"])
        for name in ours.keys.sorted() where !known.contains(name) {
            warnings.append(ConfigurationWarning(key: name, message: "not a configuration variable; ignored"))
        }
        let values = ConfigurationValues(file: fileValues, environment: ours)

        let nodeID = try readNodeID(values, hostName: hostName)
        var configuration = NodeConfiguration(
            nodeID: nodeID,
            timezone: try readTimezone(values, zoneDirectory: environment["TZDIR"] ?? "/usr/share/zoneinfo"),
            locale: try readLocale(values),
            stateDirectory: try checked(values, "state_dir", values.requiredString("state_dir"), ConfigurationValidation.notEmpty),
            logLevel: try readLogLevel(values),
            mqtt: try readMQTT(values, nodeID: nodeID, warnings: &warnings),
            homeAssistant: HomeAssistant(
                discovery: try values.boolean("home_assistant.discovery"),
                prefix: try checked(values, "home_assistant.prefix", values.requiredString("home_assistant.prefix"), ConfigurationValidation.topicPrefix)
            )
        )
        configuration.audio = try readAudio(values, warnings: &warnings)
        configuration.battery = Battery(
            path: try checked(values, "battery.path", values.requiredString("battery.path"), ConfigurationValidation.notEmpty),
            intervalSeconds: try checked(values, "battery.interval_seconds", values.integer("battery.interval_seconds")) {
                ConfigurationValidation.atLeast($0, 5)
            }
        )
        configuration.web = try readWeb(values, stateDirectory: configuration.stateDirectory)
        return LoadedConfiguration(configuration: configuration, warnings: warnings)
    }

    /// Returns `value` when `check` finds nothing wrong with it, else throws naming `path`.
    static func checked<Value>(
        _ values: ConfigurationValues, _ path: String, _ value: Value, _ check: (Value) -> String?
    ) throws(ConfigurationError) -> Value {
        if let message = check(value) { throw values.error(path, message) }
        return value
    }

    private static func readNodeID(_ values: ConfigurationValues, hostName: String?) throws(ConfigurationError) -> String {
        if let explicit = values.string("node_id") {
            return try checked(values, "node_id", explicit, ConfigurationValidation.nodeID)
        }
        let derived = ConfigurationValidation.nodeID(fromHostName: hostName ?? ConfigurationFileSystem.hostName())
        if let message = ConfigurationValidation.nodeID(derived) {
            throw ConfigurationError(key: "node_id", message: "the host name gives \"\(derived)\", which \(message); set node_id")
        }
        return derived
    }

    private static func readTimezone(_ values: ConfigurationValues, zoneDirectory: String) throws(ConfigurationError) -> String {
        let zone = try values.requiredString("timezone")
        if zone == "system" { return zone }
        let looksLikeName = !zone.isEmpty && !zone.hasPrefix("/") && !zone.split(separator: "/").contains("..")
            && !zone.contains(where: \.isWhitespace)
        guard looksLikeName else { throw values.error("timezone", "must be \"system\" or an IANA zone name like Europe/Berlin, got \"\(zone)\"") }
        // Only checked where a zone database exists; the node resolves the name itself.
        if ConfigurationFileSystem.isDirectory(zoneDirectory),
           ConfigurationFileSystem.problemReading("\(zoneDirectory)/\(zone)") != nil {
            throw values.error("timezone", "unknown time zone \"\(zone)\" (not in \(zoneDirectory))")
        }
        return zone
    }

    private static func readLocale(_ values: ConfigurationValues) throws(ConfigurationError) -> NodeLocale {
        let text = try values.requiredString("locale")
        guard let locale = NodeLocale(identifier: text) else {
            let supported = NodeLocale.allCases.map(\.rawValue).joined(separator: ", ")
            throw values.error("locale", "must be one of \(supported), got \"\(text)\"")
        }
        return locale
    }

    private static func readLogLevel(_ values: ConfigurationValues) throws(ConfigurationError) -> Logger.Level {
        let text = try values.requiredString("log_level")
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw values.error("log_level", "must be one of \(levels), got \"\(text)\"")
        }
        return level
    }

    private static func readAudio(_ values: ConfigurationValues, warnings: inout [ConfigurationWarning]) throws(ConfigurationError) -> Audio {
        let soundsDirectory = values.string("audio.sounds_dir")
        if let soundsDirectory, !ConfigurationFileSystem.isDirectory(soundsDirectory) {
            warnings.append(ConfigurationWarning(key: "audio.sounds_dir", message: "\(soundsDirectory) is not a directory (yet); no custom sounds until it is"))
        }
        return Audio(
            device: try checked(values, "audio.device", values.requiredString("audio.device"), ConfigurationValidation.notEmpty),
            sampleRate: try checked(values, "audio.sample_rate", values.integer("audio.sample_rate")) {
                ConfigurationValidation.range($0, 8000...192_000)
            },
            soundsDirectory: soundsDirectory
        )
    }

    private static func readWeb(_ values: ConfigurationValues, stateDirectory: String) throws(ConfigurationError) -> Web {
        let authText = try values.requiredString("web.auth")
        guard let auth = Web.Auth(rawValue: authText) else {
            throw values.error("web.auth", "must be token or none, got \"\(authText)\"")
        }
        let host = try checked(values, "web.host", values.requiredString("web.host"), ConfigurationValidation.listenAddress)
        let tokenFile = try checked(values, "web.token_file", values.string("web.token_file"), { (path: String?) in
            path.flatMap(ConfigurationValidation.notEmpty)
        })
        let allowedHosts = values.list("web.allowed_hosts").map { $0.lowercased() }
        if let bad = allowedHosts.first(where: { ConfigurationValidation.hostName($0) != nil }) {
            throw values.error("web.allowed_hosts", ConfigurationValidation.hostName(bad) ?? "")
        }
        return Web(
            enabled: try values.boolean("web.enabled"),
            host: host,
            port: try checked(values, "web.port", values.integer("web.port")) { ConfigurationValidation.range($0, 1...65535) },
            auth: auth,
            tokenFile: tokenFile ?? ConfigurationDefaults.webTokenFile(stateDirectory: stateDirectory),
            allowedHosts: allowedHosts
        )
    }
}
