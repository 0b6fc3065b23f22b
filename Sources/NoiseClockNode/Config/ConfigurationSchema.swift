/// A typed value: what the file gives (typed by the schema) and what an environment variable is read as.
enum ConfigurationValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case list([String])
}

/// One leaf key of the configuration: its dotted path, its YAML type and its default (if any).
struct ConfigurationKey: Sendable {
    enum Kind: Sendable {
        /// `list`: a YAML list of strings; its variable is comma-separated.
        case string, integer, boolean, list

        var expected: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .boolean: "true or false"
            case .list: "a list of strings"
            }
        }
    }

    let path: String
    let kind: Kind
    /// nil: the key is unset unless the file or the environment sets it (or `load` computes it).
    let defaultValue: ConfigurationValue?

    /// `mqtt.tls.ca_file` → `NOISECLOCK_MQTT_TLS_CA_FILE`.
    var environmentVariable: String {
        "NOISECLOCK_" + path.uppercased().map { $0 == "." ? "_" : String($0) }.joined()
    }
}

/// Every key the node knows. An unknown key in the file is an error, so this list is the contract.
enum ConfigurationSchema {
    typealias D = ConfigurationDefaults

    static let keys: [ConfigurationKey] = [
        .init(path: "node_id", kind: .string, defaultValue: nil),
        .init(path: "timezone", kind: .string, defaultValue: .string(D.timezone)),
        .init(path: "locale", kind: .string, defaultValue: .string(D.locale)),
        .init(path: "state_dir", kind: .string, defaultValue: .string(D.stateDirectory)),
        .init(path: "log_level", kind: .string, defaultValue: .string(D.logLevel)),
        .init(path: "mqtt.host", kind: .string, defaultValue: .string(D.mqttHost)),
        .init(path: "mqtt.port", kind: .integer, defaultValue: .integer(D.mqttPort)),
        .init(path: "mqtt.base_topic", kind: .string, defaultValue: .string(D.baseTopic)),
        .init(path: "mqtt.client_id", kind: .string, defaultValue: nil),
        .init(path: "mqtt.username", kind: .string, defaultValue: nil),
        .init(path: "mqtt.password_file", kind: .string, defaultValue: nil),
        .init(path: "mqtt.protocol", kind: .string, defaultValue: .string(D.mqttProtocol)),
        .init(path: "mqtt.tls.ca_file", kind: .string, defaultValue: nil),
        .init(path: "mqtt.tls.cert_file", kind: .string, defaultValue: nil),
        .init(path: "mqtt.tls.key_file", kind: .string, defaultValue: nil),
        .init(path: "mqtt.keepalive_seconds", kind: .integer, defaultValue: .integer(D.keepaliveSeconds)),
        .init(path: "home_assistant.discovery", kind: .boolean, defaultValue: .boolean(D.discovery)),
        .init(path: "home_assistant.prefix", kind: .string, defaultValue: .string(D.discoveryPrefix)),
        .init(path: "audio.device", kind: .string, defaultValue: .string(D.audioDevice)),
        .init(path: "audio.sample_rate", kind: .integer, defaultValue: .integer(D.sampleRate)),
        .init(path: "audio.sounds_dir", kind: .string, defaultValue: nil),
        .init(path: "battery.path", kind: .string, defaultValue: .string(D.batteryPath)),
        .init(path: "battery.interval_seconds", kind: .integer, defaultValue: .integer(D.batteryIntervalSeconds)),
        .init(path: "web.enabled", kind: .boolean, defaultValue: .boolean(D.webEnabled)),
        .init(path: "web.host", kind: .string, defaultValue: .string(D.webHost)),
        .init(path: "web.port", kind: .integer, defaultValue: .integer(D.webPort)),
        .init(path: "web.auth", kind: .string, defaultValue: .string(D.webAuth)),
        .init(path: "web.token_file", kind: .string, defaultValue: nil),
        .init(path: "web.allowed_hosts", kind: .list, defaultValue: .list([])),
    ]

    /// Keys that hold a mapping of further keys.
    static let sections: Set<String> = ["mqtt", "mqtt.tls", "home_assistant", "audio", "battery", "web"]

    static let keysByPath: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: keys.map { ($0.path, $0) })

    static func key(_ path: String) -> ConfigurationKey {
        guard let key = keysByPath[path] else { preconditionFailure("no configuration key \(path)") }
        return key
    }

    /// The names allowed directly under `section` ("" for the top level), for "unknown key" messages.
    static func names(under section: String) -> [String] {
        let prefix = section.isEmpty ? "" : section + "."
        let children = (keys.map(\.path) + sections).compactMap { path -> String? in
            guard path.hasPrefix(prefix) else { return nil }
            let rest = path.dropFirst(prefix.count)
            return rest.contains(".") ? nil : String(rest)
        }
        return Array(Set(children)).sorted()
    }
}
