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

    /// `noiseclock-<node_id>`.
    public static func clientID(nodeID: String) -> String { "noiseclock-\(nodeID)" }
}
