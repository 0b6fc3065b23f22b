/// What the core needs to know of the configuration: fixed for the life of the process.
public struct NodeSettings: Sendable {
    public var nodeID: String
    public var locale: NodeLocale
    public var zone: ZoneRules
    /// The lamp and the bed shaker the node drives over MQTT (`devices:`).
    public var devices: DeviceSettings
    /// Radio (`stream:`): preroll, the ring's timeout, the sleep radio's fallback noise.
    public var stream: StreamSettings
    /// Set when this start is a safe-mode start (v1.4): stations off, alarms on built-in sounds.
    public var safeMode: SafeModeStatus?

    public init(
        nodeID: String, locale: NodeLocale, zone: ZoneRules, devices: DeviceSettings = DeviceSettings(), stream: StreamSettings = StreamSettings(),
        safeMode: SafeModeStatus? = nil
    ) {
        self.nodeID = nodeID
        self.locale = locale
        self.zone = zone
        self.devices = devices
        self.stream = stream
        self.safeMode = safeMode
    }
}
