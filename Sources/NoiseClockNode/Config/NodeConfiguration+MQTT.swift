extension NodeConfiguration {
    /// Reads `mqtt.*`, including the password (`password` or `password_file`) and the TLS files' existence.
    static func readMQTT(
        _ values: ConfigurationValues, nodeID: String, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> MQTT {
        let keys = ConfigurationKeys.table
        let protocolText = try values.required(keys.mqttProtocol)
        guard let protocolVersion = MQTTProtocolVersion(rawValue: protocolText) else {
            throw values.error(keys.mqttProtocol, "must be \"5\" or \"3.1.1\", got \"\(protocolText)\"")
        }
        let username = try values.value(keys.username)
        let (password, passwordFile) = try readPassword(values, username: username, warnings: &warnings)
        let hosts = try values.required(keys.mqttHosts).compactMap(BrokerAddress.init(parsing:))
        var mqtt = MQTT(
            host: try values.required(keys.mqttHost),
            port: try values.required(keys.mqttPort),
            baseTopic: try values.required(keys.baseTopic),
            clientID: try values.value(keys.clientID) ?? ConfigurationDefaults.clientID(nodeID: nodeID),
            username: username,
            passwordFile: passwordFile,
            password: password,
            protocolVersion: protocolVersion,
            tls: try readTLS(values),
            keepaliveSeconds: try values.required(keys.keepaliveSeconds)
        )
        if let first = hosts.first {
            mqtt.host = first.host
            mqtt.port = first.port
            mqtt.hosts = hosts
        }
        return mqtt
    }

    /// The password and the file it came from: `mqtt.password` (web app or environment, never
    /// the file) or `mqtt.password_file`, the one set in the place that wins; both in one place is refused.
    private static func readPassword(
        _ values: ConfigurationValues, username: String?, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> (Secret?, String?) {
        let keys = ConfigurationKeys.table
        let given = try values.value(keys.password)
        let file = try values.value(keys.passwordFile)
        // Refused in the file even when the web app or the environment sets one over it.
        if values.inFile(keys.password) {
            throw ConfigurationError(key: keys.password.path, message: "not in the configuration file (whoever reads the file would "
                + "read the password): name a file in mqtt.password_file, or set it in the web app or NOISECLOCK_MQTT_PASSWORD")
        }
        let rank = ["default": 0, "file": 1, "web": 2, "environment": 3]
        let givenRank = given == nil ? 0 : rank[values.source(keys.password)] ?? 0
        let fileRank = file == nil ? 0 : rank[values.source(keys.passwordFile)] ?? 0
        if given != nil, file != nil, givenRank == fileRank {
            throw values.error(keys.password, "give mqtt.password or mqtt.password_file, not both")
        }
        let password: Secret?
        let from: String?
        let key: any AnyConfigurationKey
        if let given, givenRank > fileRank {
            (password, from, key) = (Secret(given), nil, keys.password)
        } else if let file {
            (password, from, key) = (try readPassword(values, file: file, warnings: &warnings), file, keys.passwordFile)
        } else {
            return (nil, nil)
        }
        if username == nil { throw values.error(key, "a password needs mqtt.username as well") }
        return (password, from)
    }

    /// The first line of the file, trimmed. Warns when group or others may read it.
    private static func readPassword(
        _ values: ConfigurationValues, file: String, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> Secret {
        if let problem = ConfigurationFileSystem.problemReading(file) {
            throw values.error(ConfigurationKeys.table.passwordFile, "cannot read \(file): \(problem)")
        }
        let text: String
        switch ConfigurationFileSystem.readText(file) {
        case .success(let contents): text = contents
        case .failure(let problem): throw values.error(ConfigurationKeys.table.passwordFile, "cannot read \(file): \(problem)")
        }
        let firstLine = text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        let password = firstLine.trimmedOfBlanks()
        guard !password.isEmpty else {
            throw values.error(ConfigurationKeys.table.passwordFile, "\(file) is empty (the password is its first line)")
        }
        if let mode = ConfigurationFileSystem.permissions(file), mode & 0o044 != 0 {
            let octal = String(mode, radix: 8)
            warnings.append(ConfigurationWarning(
                key: ConfigurationKeys.table.passwordFile.path,
                message: "\(file) is readable by group or others (mode \(octal)); run chmod 600 on it"
            ))
        }
        return Secret(password)
    }

    private static func readTLS(_ values: ConfigurationValues) throws(ConfigurationError) -> TLS {
        let keys = ConfigurationKeys.table
        let tls = TLS(caFile: try values.value(keys.caFile), certFile: try values.value(keys.certFile), keyFile: try values.value(keys.keyFile))
        for (key, file) in [(keys.caFile, tls.caFile), (keys.certFile, tls.certFile), (keys.keyFile, tls.keyFile)] {
            if let file, let problem = ConfigurationFileSystem.problemReading(file) {
                throw values.error(key, "cannot read \(file): \(problem)")
            }
        }
        if (tls.certFile == nil) != (tls.keyFile == nil) {
            let missing = tls.certFile == nil ? keys.certFile : keys.keyFile
            throw values.error(missing, "a client certificate needs both mqtt.tls.cert_file and mqtt.tls.key_file")
        }
        return tls
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmedOfBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
