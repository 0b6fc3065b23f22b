extension Doctor {
    /// What to do about a configuration that does not load: the file itself (a wrong `--config`),
    /// a value from the environment (which wins over the file), or a key in the file.
    static func configurationAdvice(_ error: ConfigurationError, configPath: String) -> String {
        if error.key == configPath {
            return "check the path given to --config (an installed node's file is /etc/noiseclock/noiseclock.yaml)"
        }
        if let variable = environmentVariable(in: error.message) {
            return "fix or unset \(variable): the environment wins over \(configPath)"
        }
        return "fix \(error.key) in \(configPath) (configuration.md lists every key: docs/ in the source, "
            + "/usr/share/doc/noiseclock/ when installed)"
    }

    /// `NOISECLOCK_TIMEZONE` from a message ending "(from NOISECLOCK_TIMEZONE)", as the loader says it.
    static func environmentVariable(in message: String) -> String? {
        guard message.hasSuffix(")"), let open = message.lastIndex(of: "(") else { return nil }
        let inside = message[message.index(after: open)..<message.index(before: message.endIndex)]
        guard inside.hasPrefix("from NOISECLOCK_") else { return nil }
        return String(inside.dropFirst("from ".count))
    }
}
