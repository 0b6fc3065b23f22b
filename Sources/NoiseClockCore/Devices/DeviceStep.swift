/// One step every device takes in turn (`DeviceList.visit`): following the node, hearing a
/// report on a state topic, or moving to a new endpoint. Collects what they publish.
struct DeviceStep: DeviceVisitor {
    enum Kind {
        case follow
        case reported(topic: String, payload: [UInt8])
        case rebind(DeviceSettings)
    }

    let kind: Kind
    let node: DeviceSituation
    var outbox: [Publication] = []
    /// Whether the report was on some device's state topic.
    var known = false

    static func follow(_ node: DeviceSituation) -> DeviceStep { DeviceStep(kind: .follow, node: node) }

    static func reported(topic: String, payload: [UInt8], node: DeviceSituation) -> DeviceStep {
        DeviceStep(kind: .reported(topic: topic, payload: payload), node: node)
    }

    static func rebind(_ settings: DeviceSettings, node: DeviceSituation) -> DeviceStep { DeviceStep(kind: .rebind(settings), node: node) }

    mutating func visit<Device: BridgedDevice>(_ device: inout Device) {
        switch kind {
        case .follow:
            device.follow(node, outbox: &outbox)
        case .reported(let topic, let payload):
            guard let endpoint = device.device, endpoint.stateTopics.contains(topic) else { return }
            known = true
            if let power = endpoint.reportedPower(topic: topic, payload: payload) { device.reported(power: power, node: node, outbox: &outbox) }
        case .rebind(let settings):
            guard device.device != settings[Device.key] else { return }
            device.rebind(to: settings[Device.key], node: node, outbox: &outbox)
        }
    }
}
