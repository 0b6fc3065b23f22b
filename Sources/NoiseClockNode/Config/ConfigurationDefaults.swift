/// The defaults of every key that has one (the schema and the initialisers share them).
public enum ConfigurationDefaults {
    public static let timezone = "system"
    public static let locale = "en"
    public static let stateDirectory = "./state"
    public static let logLevel = "info"
    public static let mqttHost = "127.0.0.1"
    public static let mqttPort = 1883
    public static let baseTopic = "noiseclock"
    public static let mqttProtocol = "5"
    public static let keepaliveSeconds = 30
    public static let discovery = true
    public static let discoveryPrefix = "homeassistant"
    public static let audioDevice = "default"
    public static let sampleRate = 48000
    public static let batteryPath = "/sys/class/power_supply"
    public static let batteryIntervalSeconds = 60
    public static let webEnabled = true
    public static let webHost = "0.0.0.0"
    public static let webPort = 8080
    public static let webAuth = "token"
    /// The token file when `web.token_file` is not set: beside the state files.
    public static func webTokenFile(stateDirectory: String) -> String { "\(stateDirectory)/web_token" }

    /// `noiseclock-<node_id>`.
    public static func clientID(nodeID: String) -> String { "noiseclock-\(nodeID)" }
}
