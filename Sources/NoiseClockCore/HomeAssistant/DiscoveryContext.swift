/// Everything Home Assistant discovery needs to know about one node, gathered by the node service.
/// Pure data: the builder turns it into retained discovery configs.
public struct DiscoveryContext: Sendable {
    /// The node id (`[a-z0-9_-]`, as the contract normalises it).
    public var nodeID: String
    /// The node's own topic root `{base}/{node}` (the contract's `~`).
    public var root: String
    /// The discovery prefix (`home_assistant.prefix`, default `homeassistant`).
    public var prefix: String
    public var softwareVersion: String
    /// An `http(s)://` page that manages the node, when there is one.
    public var configurationURL: String?
    /// The alarms as stored; each gets an enabled switch and a time text named from its label.
    public var alarms: [Alarm]
    /// The catalog's noise sounds: the options of the sound select.
    public var noiseSounds: [SoundCatalog.Entry]
    /// Battery entities exist only on nodes that have a battery.
    public var batteryPresent: Bool
    /// Each routine gets an enabled switch.
    public var routines: [Routine]
    /// Each timer preset gets a button that starts it.
    public var timerPresets: [TimerPreset]
    /// The configured buttons' ids: each gesture of each is a device trigger.
    public var buttons: [String] = []
    /// The catalog's alarm sounds and the radio stations (v1.3): the options of each alarm's sound select, besides `none`.
    public var alarmSounds: [SoundCatalog.Entry] = []

    public init(
        nodeID: String, root: String, prefix: String = "homeassistant", softwareVersion: String,
        configurationURL: String? = nil, alarms: [Alarm], noiseSounds: [SoundCatalog.Entry], batteryPresent: Bool,
        routines: [Routine] = [], timerPresets: [TimerPreset] = []
    ) {
        self.routines = routines
        self.timerPresets = timerPresets
        self.nodeID = nodeID
        self.root = root
        self.prefix = prefix
        self.softwareVersion = softwareVersion
        self.configurationURL = configurationURL
        self.alarms = alarms
        self.noiseSounds = noiseSounds
        self.batteryPresent = batteryPresent
    }

    /// An absolute topic under the node's root, for what the node publishes: `topic("noise")` is `{base}/{node}/noise`.
    public func topic(_ relative: String) -> String { root + "/" + relative }

    /// A command's topic, from the command table (`topic(.noise(.set))` is `{base}/{node}/noise/set`):
    /// discovery names no command as text, so a renamed command cannot leave a `command_topic` behind.
    public func topic(_ command: CommandTopic) -> String { topic(command.rawValue) }
}
