extension NodeConfiguration {
    /// Reads `mqtt.*`, including the password from `password_file` and the TLS files' existence.
    static func readMQTT(
        _ values: ConfigurationValues, nodeID: String, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> MQTT {
        let keys = ConfigurationKeys.table
        let protocolText = try values.required(keys.mqttProtocol)
        guard let protocolVersion = MQTTProtocolVersion(rawValue: protocolText) else {
            throw values.error(keys.mqttProtocol, "must be \"5\" or \"3.1.1\", got \"\(protocolText)\"")
        }
        let username = try values.value(keys.username)
        let passwordFile = try values.value(keys.passwordFile)
        var password: Secret?
        if let passwordFile {
            password = try readPassword(values, file: passwordFile, warnings: &warnings)
            if username == nil {
                throw values.error(keys.passwordFile, "a password needs mqtt.username as well")
            }
        }
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
