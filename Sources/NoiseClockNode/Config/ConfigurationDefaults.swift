/// The defaults of every key that has one, for the initialisers of `NodeConfiguration`: read from
/// the one table, `ConfigurationKeys`, so a default is stated once.
public enum ConfigurationDefaults {
    private static let keys = ConfigurationKeys.table

    public static let timezone = keys.timezone.defaultValue!
    public static let locale = keys.locale.defaultValue!
    public static let stateDirectory = keys.stateDirectory.defaultValue!
    public static let logLevel = keys.logLevel.defaultValue!
    public static let mqttHost = keys.mqttHost.defaultValue!
    public static let mqttPort = keys.mqttPort.defaultValue!
    public static let baseTopic = keys.baseTopic.defaultValue!
    public static let mqttProtocol = keys.mqttProtocol.defaultValue!
    public static let keepaliveSeconds = keys.keepaliveSeconds.defaultValue!
    public static let discovery = keys.discovery.defaultValue!
    public static let discoveryPrefix = keys.discoveryPrefix.defaultValue!
    public static let audioDevice = keys.audioDevice.defaultValue!
    public static let sampleRate = keys.sampleRate.defaultValue!
    public static let batteryPath = keys.batteryPath.defaultValue!
    public static let batteryIntervalSeconds = keys.batteryIntervalSeconds.defaultValue!
    public static let webEnabled = keys.webEnabled.defaultValue!
    public static let webHost = keys.webHost.defaultValue!
    public static let webPort = keys.webPort.defaultValue!
    public static let webAuth = keys.webAuth.defaultValue!
    /// The token file when `web.token_file` is not set: beside the state files.
    public static func webTokenFile(stateDirectory: String) -> String { "\(stateDirectory)/web_token" }

    /// `noiseclock-<node_id>`.
    public static func clientID(nodeID: String) -> String { "noiseclock-\(nodeID)" }
}
