import Logging
import NoiseClockCore
import NoiseClockPlatform

extension NodeConfiguration {
    /// The test suite's stand-in for `/dev` in `noiseclock doctor` (docs/configuration.md): a
    /// device node of its own, with a group the user lacks.
    public static let testDeviceDirectoryKey = "NOISECLOCK_TEST_DEV_DIR"

    /// Loads the configuration: environment `NOISECLOCK_<SECTION>_<KEY>` over the web app's settings
    /// (`<state_dir>/settings.json`) over the YAML file at `path`
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
        try loadNow(path: path, environment: environment, hostName: hostName).loaded
    }

    /// `load`, synchronously, with the layers it used. `web`: the web app's settings to check
    /// instead of those in `<state_dir>/settings.json` (a change being validated: its error is
    /// thrown); the stored ones, when they no longer pass (a zone removed), are set aside for this
    /// start with a warning, so they can never keep the node from starting.
    static func loadNow(
        path: String, environment: [String: String], hostName: String? = nil, web: [String: JSONValue]? = nil
    ) throws(ConfigurationError) -> (loaded: LoadedConfiguration, values: ConfigurationValues) {
        let text: String
        switch ConfigurationFileSystem.readText(path) {
        case .success(let contents): text = contents
        case .failure(let problem): throw ConfigurationError(key: path, message: "cannot read the configuration file: \(problem)")
        }
        let fileValues = try ConfigurationFile.values(fromYAML: text, path: path)

        var warnings: [ConfigurationWarning] = []
        let ours = environment.filter { $0.key.hasPrefix("NOISECLOCK_") && !$0.value.isEmpty }
        // NOISECLOCK_RESOURCES (where sounds.json lives) is read by the sound library, not here.
        let hooks = ["NOISECLOCK_RESOURCES", "NOISECLOCK_TEST_CLOCK_FILE", "NOISECLOCK_TEST_SEED", Self.testDeviceDirectoryKey,
                     StateWriteLedger.environmentKey]
        let known = Set(ConfigurationSchema.keys.map(\.environmentVariable) + hooks)
        for name in ours.keys.sorted() where !known.contains(name) {
            warnings.append(ConfigurationWarning(key: name, message: "not a configuration variable; ignored"))
        }
        let plain = ConfigurationValues(file: fileValues, environment: ours)
        // settings.json lives in state_dir, which the web app cannot move.
        let stateDirectory = try plain.required(ConfigurationKeys.table.stateDirectory)
        let stored = web ?? WebSettings.stored(stateDirectory: stateDirectory, warnings: &warnings)
        let layered = ConfigurationValues(file: fileValues, environment: ours, web: WebSettings.layer(stored))
        do {
            let configuration = try build(layered, environment: environment, hostName: hostName, warnings: &warnings)
            return (LoadedConfiguration(configuration: configuration, warnings: warnings), layered)
        } catch {
            guard web == nil, !stored.isEmpty else { throw error }
            warnings.append(ConfigurationWarning(
                key: WebSettings.fileName, message: "\(error.description); the web app's settings are not used until this is fixed"))
            let configuration = try build(plain, environment: environment, hostName: hostName, warnings: &warnings)
            return (LoadedConfiguration(configuration: configuration, warnings: warnings), plain)
        }
    }

    private static func build(
        _ values: ConfigurationValues, environment: [String: String], hostName: String?, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> NodeConfiguration {
        let keys = ConfigurationKeys.table
        let nodeID = try readNodeID(values, hostName: hostName)
        var configuration = NodeConfiguration(
            nodeID: nodeID,
            timezone: try readTimezone(values, zoneDirectory: environment["TZDIR"] ?? "/usr/share/zoneinfo"),
            locale: try readLocale(values),
            stateDirectory: try values.required(keys.stateDirectory),
            logLevel: try readLogLevel(values),
            mqtt: try readMQTT(values, nodeID: nodeID, warnings: &warnings),
            homeAssistant: HomeAssistant(discovery: try values.required(keys.discovery), prefix: try values.required(keys.discoveryPrefix))
        )
        configuration.audio = try readAudio(values, warnings: &warnings)
        configuration.battery = Battery(
            path: try values.required(keys.batteryPath), intervalSeconds: try values.required(keys.batteryIntervalSeconds)
        )
        configuration.web = try readWeb(values, stateDirectory: configuration.stateDirectory)
        configuration.devices = try readDevices(values)
        configuration.speech = Speech(
            enabled: try values.required(keys.speechEnabled), voice: try values.value(keys.speechVoice),
            rate: try values.required(keys.speechRate), volume: try values.required(keys.speechVolume),
            confirmButtons: try values.required(keys.speechConfirmButtons))
        let fallbackNoise = try values.required(keys.streamFallbackNoise)
        let streamCAFile = try values.value(keys.streamCAFile)
        if let file = streamCAFile, let problem = ConfigurationFileSystem.problemReading(file) {
            throw values.error(keys.streamCAFile, "cannot read \(file): \(problem)")
        }
        configuration.stream = StreamSettings(
            prerollSeconds: try values.required(keys.streamPrerollSeconds), timeoutSeconds: try values.required(keys.streamTimeoutSeconds),
            fallbackNoise: fallbackNoise == StreamSettings.noFallbackNoise ? nil : fallbackNoise, caFile: streamCAFile,
            userAgent: try values.value(keys.streamUserAgent) ?? StreamSettings.defaultUserAgent,
            allowsLocalAddresses: try values.required(keys.streamAllowLocalAddresses))
        let directoryURL = try values.required(keys.streamDirectoryURL)
        configuration.stream.directoryURL = directoryURL == StreamSettings.noDirectory ? nil : directoryURL
        configuration.buttons = try readButtons(values)
        configuration.buttonTiming = ButtonTiming(
            holdSeconds: try values.required(keys.holdSeconds), doubleSeconds: try values.required(keys.doubleSeconds))
        return configuration
    }

    private static func readNodeID(_ values: ConfigurationValues, hostName: String?) throws(ConfigurationError) -> String {
        if let explicit = try values.value(ConfigurationKeys.table.nodeID) { return explicit }
        let derived = ConfigurationValidation.nodeID(fromHostName: hostName ?? ConfigurationFileSystem.hostName())
        if let message = ConfigurationValidation.nodeID(derived) {
            throw ConfigurationError(key: "node_id", message: "the host name gives \"\(derived)\", which \(message); set node_id")
        }
        return derived
    }

    private static func readTimezone(_ values: ConfigurationValues, zoneDirectory: String) throws(ConfigurationError) -> String {
        let key = ConfigurationKeys.table.timezone
        let zone = try values.required(key)
        if zone == "system" { return zone }
        let looksLikeName = !zone.isEmpty && !zone.hasPrefix("/") && !zone.split(separator: "/").contains("..")
            && !zone.contains(where: \.isWhitespace)
        guard looksLikeName else { throw values.error(key, "must be \"system\" or an IANA zone name like Europe/Berlin, got \"\(zone)\"") }
        // Only checked where a zone database exists; the node resolves the name itself.
        if ConfigurationFileSystem.isDirectory(zoneDirectory),
           ConfigurationFileSystem.problemReading("\(zoneDirectory)/\(zone)") != nil {
            throw values.error(key, "unknown time zone \"\(zone)\" (not in \(zoneDirectory))")
        }
        return zone
    }

    private static func readLocale(_ values: ConfigurationValues) throws(ConfigurationError) -> NodeLocale {
        let key = ConfigurationKeys.table.locale
        let text = try values.required(key)
        guard let locale = NodeLocale(identifier: text) else {
            let supported = NodeLocale.allCases.map(\.rawValue).joined(separator: ", ")
            throw values.error(key, "must be one of \(supported), got \"\(text)\"")
        }
        return locale
    }

    private static func readLogLevel(_ values: ConfigurationValues) throws(ConfigurationError) -> Logger.Level {
        let key = ConfigurationKeys.table.logLevel
        let text = try values.required(key)
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw values.error(key, "must be one of \(levels), got \"\(text)\"")
        }
        return level
    }

    private static func readAudio(_ values: ConfigurationValues, warnings: inout [ConfigurationWarning]) throws(ConfigurationError) -> Audio {
        let keys = ConfigurationKeys.table
        let soundsDirectory = try values.value(keys.soundsDirectory)
        if let soundsDirectory, !ConfigurationFileSystem.isDirectory(soundsDirectory) {
            let message = "\(soundsDirectory) is not a directory (yet); no custom sounds until it is"
            warnings.append(ConfigurationWarning(key: keys.soundsDirectory.path, message: message))
        }
        return Audio(
            device: try values.required(keys.audioDevice), sampleRate: try values.required(keys.sampleRate), soundsDirectory: soundsDirectory
        )
    }

    private static func readDevices(_ values: ConfigurationValues) throws(ConfigurationError) -> DeviceSettings {
        var devices = DeviceSettings()
        for keys in ConfigurationKeys.table.devices {
            guard let name = try values.value(keys.topic) else { continue }
            // The key's check admits only known bridges.
            let bridge = DeviceEndpoint.Bridge(rawValue: try values.required(keys.bridge)) ?? .zigbee2mqtt
            devices[keys.kind.key] = DeviceEndpoint(topic: name, bridge: bridge)
        }
        return devices
    }

    private static func readWeb(_ values: ConfigurationValues, stateDirectory: String) throws(ConfigurationError) -> Web {
        let keys = ConfigurationKeys.table
        let authText = try values.required(keys.webAuth)
        guard let auth = Web.Auth(rawValue: authText) else {
            throw values.error(keys.webAuth, "must be token or none, got \"\(authText)\"")
        }
        let host = try values.required(keys.webHost)
        let tokenFile = try values.value(keys.webTokenFile)
        let allowedHosts = try values.required(keys.webAllowedHosts).map { $0.lowercased() }
        return Web(
            enabled: try values.required(keys.webEnabled),
            host: host,
            port: try values.required(keys.webPort),
            auth: auth,
            tokenFile: tokenFile ?? ConfigurationDefaults.webTokenFile(stateDirectory: stateDirectory),
            allowedHosts: allowedHosts
        )
    }
}
