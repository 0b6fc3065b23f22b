/// The devices the node drives, one stored value each, in the order their commands go out.
/// Each is reached as its own type (`devices.lamp`), never found in a list and cast.
public struct DeviceList: Sendable, Equatable {
    // Adding a device kind: its stored property here and its line in `visit`; its rules are
    // one file in Devices/<Kind>/. Configuration keys, subscriptions, doctor and readiness
    // follow from `kinds`.
    public internal(set) var lamp = Lamp(device: nil)
    public internal(set) var shaker = Shaker(device: nil)

    /// Runs `visitor` on each device in order, in place and as its own type.
    mutating func visit(_ visitor: inout some DeviceVisitor) {
        visitor.visit(&lamp)
        visitor.visit(&shaker)
    }

    /// Every kind of bridged device, in order.
    public static let kinds: [any BridgedDevice.Type] = DeviceList().all.map { type(of: $0) }

    /// Every device, in order, read-only.
    public var all: [any BridgedDevice] {
        var copy = self
        var reader = DeviceReader()
        copy.visit(&reader)
        return reader.devices
    }

    private init() {}

    public init(settings: DeviceSettings) {
        var made = DeviceMaker(settings: settings)
        visit(&made)
    }

    /// Each device follows the node, in order.
    mutating func follow(_ node: DeviceSituation, outbox: inout [Publication]) {
        var step = DeviceStep.follow(node)
        visit(&step)
        outbox += step.outbox
    }

    /// A message on a state topic, to the devices whose topic it is. Returns false when it is no device's.
    mutating func reported(topic: String, payload: [UInt8], node: DeviceSituation, outbox: inout [Publication]) -> Bool {
        var step = DeviceStep.reported(topic: topic, payload: payload, node: node)
        visit(&step)
        outbox += step.outbox
        return step.known
    }

    /// Each device whose endpoint `settings` changes is re-bound to it.
    mutating func rebind(_ settings: DeviceSettings, node: DeviceSituation, outbox: inout [Publication]) {
        var step = DeviceStep.rebind(settings, node: node)
        visit(&step)
        outbox += step.outbox
    }

    func deadlines(_ node: DeviceSituation) -> [Instant] { all.compactMap { $0.deviceDeadline(node) } }

    var problems: [ReadinessProblem] { all.compactMap(\.problem) }
}

/// Copies each device out, boxed, to be read.
private struct DeviceReader: DeviceVisitor {
    var devices: [any BridgedDevice] = []

    mutating func visit<Device: BridgedDevice>(_ device: inout Device) { devices.append(device) }
}

/// Makes each device from its configured endpoint.
private struct DeviceMaker: DeviceVisitor {
    let settings: DeviceSettings

    mutating func visit<Device: BridgedDevice>(_ device: inout Device) { device = Device(device: settings[Device.key]) }
}
