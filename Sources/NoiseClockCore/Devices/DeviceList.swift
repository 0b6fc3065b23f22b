/// The devices the node drives, one value each, in the order their commands go out.
public struct DeviceList: Sendable {
    /// Every kind of bridged device. Adding a device: its type here (one line) and its rules in
    /// one file; configuration keys, subscriptions, doctor and readiness follow from this list.
    public static let kinds: [any BridgedDevice.Type] = [
        LightFeature.self,
        Shaker.self,
    ]

    public internal(set) var all: [any BridgedDevice]

    public init(settings: DeviceSettings) {
        all = Self.kinds.map { $0.init(device: settings[$0.key]) }
    }

    /// The device of kind `Device` (every kind is in `all` from the start).
    public internal(set) subscript<Device: BridgedDevice>(_ kind: Device.Type) -> Device {
        get { all.lazy.compactMap { $0 as? Device }.first ?? Device(device: nil) }
        set {
            guard let index = all.firstIndex(where: { $0 is Device }) else { return all.append(newValue) }
            all[index] = newValue
        }
    }

    /// Each device follows the node, in order.
    mutating func follow(_ node: DeviceSituation, outbox: inout [Publication]) {
        for index in all.indices { all[index].follow(node, outbox: &outbox) }
    }

    /// A message on a state topic, to the devices whose topic it is. Returns false when it is no device's.
    mutating func reported(topic: String, payload: [UInt8], node: DeviceSituation, outbox: inout [Publication]) -> Bool {
        var known = false
        for index in all.indices {
            guard let device = all[index].device, device.stateTopics.contains(topic) else { continue }
            known = true
            if let power = device.reportedPower(topic: topic, payload: payload) { all[index].reported(power: power, node: node, outbox: &outbox) }
        }
        return known
    }

    /// Each device whose endpoint `settings` changes is re-bound to it.
    mutating func rebind(_ settings: DeviceSettings, node: DeviceSituation, outbox: inout [Publication]) {
        for index in all.indices {
            let kind = type(of: all[index])
            guard all[index].device != settings[kind.key] else { continue }
            all[index].rebind(to: settings[kind.key], node: node, outbox: &outbox)
        }
    }

    func deadlines(_ node: DeviceSituation) -> [Instant] { all.compactMap { $0.deviceDeadline(node) } }

    var problems: [ReadinessProblem] { all.compactMap(\.problem) }
}
