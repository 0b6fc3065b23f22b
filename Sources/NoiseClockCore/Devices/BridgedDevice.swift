/// The shape every device the node drives through a bridge (Zigbee2MQTT, Tasmota) has: the lamp,
/// the bed shaker's plug. A device is a value: after every input it follows the node (what the
/// alarms and routines want), putting its commands in the outbox as `Publication.device` (the
/// machine sends them first, as `NodeEffect.publish`); its bridge's reports come back through
/// `reported`; it says when it next needs waking and what readiness should know. It never does I/O.
///
/// Adding a device kind (docs/extending.md, "A device kind"): one file,
/// Devices/<Kind>/<Kind>.swift, with a type that conforms, and its stored property and `visit`
/// line in `DeviceList`; configuration keys, subscriptions, `noiseclock doctor` and readiness
/// follow from `DeviceList.kinds`.
public protocol BridgedDevice: Sendable, Equatable {
    /// Its key under `devices:` in the configuration (`light` → `devices.light.topic`).
    static var key: String { get }
    /// What `noiseclock doctor` calls it (`lamp`).
    static var name: String { get }
    /// The meaning of `devices.<key>.topic` and `devices.<key>.protocol` in docs/configuration.md.
    static var topicDoc: String { get }
    static var bridgeDoc: String { get }

    /// Made from its configured endpoint (nil: none configured; it then sends nothing).
    init(device: DeviceEndpoint?)

    var device: DeviceEndpoint? { get }

    /// After every input: follows the node, commands and events into `outbox`.
    mutating func follow(_ node: DeviceSituation, outbox: inout [Publication])

    /// Its bridge reported its power on one of its state topics.
    mutating func reported(power: Bool, node: DeviceSituation, outbox: inout [Publication])

    /// The earliest instant it needs the node to follow again (a wait for an answer, a step).
    func deviceDeadline(_ node: DeviceSituation) -> Instant?

    /// What readiness reports about it now (it did not answer in time), if anything.
    var problem: ReadinessProblem? { get }

    /// Driven from now on at `device` (the web app's settings): what the node had put on at the
    /// old one is switched off there, the new one is told what it should show, and its answers
    /// are awaited afresh.
    mutating func rebind(to device: DeviceEndpoint?, node: DeviceSituation, outbox: inout [Publication])
}

extension BridgedDevice {
    public var problem: ReadinessProblem? { nil }
}
