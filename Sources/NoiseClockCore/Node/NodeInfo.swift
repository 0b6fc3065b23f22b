/// `~/info` (retained, QoS 1): what is running where, for a user, a fleet script or a package
/// test asking "which version is this node, since when, reading which files".
public struct NodeInfo: Sendable, Equatable {
    public var version: String
    public var startedAt: Instant
    /// The configuration file as an absolute path.
    public var configFile: String
    public var stateDirectory: String
    /// The machine's architecture as the kernel names it (`uname -m`: `x86_64`, `aarch64`).
    public var architecture: String
    /// v1.4: why this start is in safe mode; nil for a normal start.
    public var safeMode: SafeModeStatus?

    public init(version: String = NoiseClockVersion.current, startedAt: Instant, configFile: String, stateDirectory: String,
                architecture: String, safeMode: SafeModeStatus? = nil) {
        self.version = version
        self.startedAt = startedAt
        self.configFile = configFile
        self.stateDirectory = stateDirectory
        self.architecture = architecture
        self.safeMode = safeMode
    }

    /// The payload, `started_at` in the node's zone as every other time it publishes.
    public func json(zone: ZoneRules) -> JSONValue {
        .object(JSONObject([
            ("version", .string(version)),
            ("started_at", .string(ISO8601.string(startedAt, in: zone))),
            ("config_file", .string(configFile)),
            ("state_dir", .string(stateDirectory)),
            ("arch", .string(architecture)),
            ("safe_mode", safeMode?.json(zone: zone) ?? .null),
        ]))
    }
}
