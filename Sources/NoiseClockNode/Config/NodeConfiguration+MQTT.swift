extension NodeConfiguration {
    /// Reads `mqtt.*`, including the password from `password_file` and the TLS files' existence.
    static func readMQTT(
        _ values: ConfigurationValues, nodeID: String, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> MQTT {
        let protocolText = try values.requiredString("mqtt.protocol")
        guard let protocolVersion = MQTTProtocolVersion(rawValue: protocolText) else {
            throw values.error("mqtt.protocol", "must be \"5\" or \"3.1.1\", got \"\(protocolText)\"")
        }
        let username = values.string("mqtt.username")
        let passwordFile = values.string("mqtt.password_file")
        var password: Secret?
        if let passwordFile {
            password = try readPassword(values, file: passwordFile, warnings: &warnings)
            if username == nil {
                throw values.error("mqtt.password_file", "a password needs mqtt.username as well")
            }
        }
        return MQTT(
            host: try checked(values, "mqtt.host", values.requiredString("mqtt.host"), ConfigurationValidation.notEmpty),
            port: try checked(values, "mqtt.port", values.integer("mqtt.port")) { ConfigurationValidation.range($0, 1...65535) },
            baseTopic: try checked(values, "mqtt.base_topic", values.requiredString("mqtt.base_topic"), ConfigurationValidation.topicPrefix),
            clientID: try checked(
                values, "mqtt.client_id", values.string("mqtt.client_id") ?? ConfigurationDefaults.clientID(nodeID: nodeID),
                ConfigurationValidation.notEmpty
            ),
            username: username,
            passwordFile: passwordFile,
            password: password,
            protocolVersion: protocolVersion,
            tls: try readTLS(values),
            keepaliveSeconds: try checked(values, "mqtt.keepalive_seconds", values.integer("mqtt.keepalive_seconds")) {
                ConfigurationValidation.range($0, 5...3600)
            }
        )
    }

    /// The first line of the file, trimmed. Warns when group or others may read it.
    private static func readPassword(
        _ values: ConfigurationValues, file: String, warnings: inout [ConfigurationWarning]
    ) throws(ConfigurationError) -> Secret {
        if let problem = ConfigurationFileSystem.problemReading(file) {
            throw values.error("mqtt.password_file", "cannot read \(file): \(problem)")
        }
        let text: String
        switch ConfigurationFileSystem.readText(file) {
        case .success(let contents): text = contents
        case .failure(let problem): throw values.error("mqtt.password_file", "cannot read \(file): \(problem)")
        }
        let firstLine = text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        let password = firstLine.trimmedOfBlanks()
        guard !password.isEmpty else {
            throw values.error("mqtt.password_file", "\(file) is empty (the password is its first line)")
        }
        if let mode = ConfigurationFileSystem.permissions(file), mode & 0o044 != 0 {
            let octal = String(mode, radix: 8)
            warnings.append(ConfigurationWarning(
                key: "mqtt.password_file",
                message: "\(file) is readable by group or others (mode \(octal)); run chmod 600 on it"
            ))
        }
        return Secret(password)
    }

    private static func readTLS(_ values: ConfigurationValues) throws(ConfigurationError) -> TLS {
        let tls = TLS(
            caFile: values.string("mqtt.tls.ca_file"),
            certFile: values.string("mqtt.tls.cert_file"),
            keyFile: values.string("mqtt.tls.key_file")
        )
        for (path, file) in [("mqtt.tls.ca_file", tls.caFile), ("mqtt.tls.cert_file", tls.certFile), ("mqtt.tls.key_file", tls.keyFile)] {
            if let file, let problem = ConfigurationFileSystem.problemReading(file) {
                throw values.error(path, "cannot read \(file): \(problem)")
            }
        }
        if (tls.certFile == nil) != (tls.keyFile == nil) {
            let missing = tls.certFile == nil ? "mqtt.tls.cert_file" : "mqtt.tls.key_file"
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
