/// Where a bridged device is: a lamp or plug the node drives directly over MQTT, in its bridge's own conventions, so the
/// wake-up needs only the broker and the bridge (not Home Assistant).
public struct DeviceEndpoint: Sendable, Equatable {
    public enum Bridge: String, Sendable, CaseIterable {
        /// `<topic>/set` with JSON; the device's state on `<topic>`.
        case zigbee2mqtt
        /// `cmnd/<topic>/…`; confirmation on `stat/<topic>/RESULT` or `stat/<topic>/POWER`.
        case tasmota
    }

    /// The device's topic as its bridge names it (`zigbee2mqtt/bedroom_lamp`, `bedroom_bulb`).
    public var topic: String
    public var bridge: Bridge

    public init(topic: String, bridge: Bridge) {
        self.topic = topic
        self.bridge = bridge
    }

    /// Where the device reports its state: what the node subscribes to.
    public var stateTopics: [String] {
        switch bridge {
        case .zigbee2mqtt: [topic]
        case .tasmota: ["stat/\(topic)/RESULT", "stat/\(topic)/POWER"]
        }
    }
}

/// One message to a device's own topic (absolute, not under `~/`).
public struct DeviceCommand: Sendable, Equatable {
    public var topic: String
    public var payload: String

    public init(topic: String, payload: String) {
        self.topic = topic
        self.payload = payload
    }
}

extension Publication {
    /// A command to a device: on the device's own topic (absolute), QoS 1, not retained.
    public static func device(_ command: DeviceCommand) -> Publication {
        Publication(topic: command.topic, body: .text(command.payload), retain: false, qos: 1, absolute: true)
    }

    /// The command this publication carries to a device, if it is one.
    public var deviceCommand: DeviceCommand? {
        guard absolute, case .text(let payload) = body else { return nil }
        return DeviceCommand(topic: topic, payload: payload)
    }
}
