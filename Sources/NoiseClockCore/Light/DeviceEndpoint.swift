/// A lamp or plug the node drives directly over MQTT, in its bridge's own conventions, so the
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

/// `devices:` in the configuration: the lamp for sunrises and routines, the plug with a bed shaker.
public struct DeviceSettings: Sendable, Equatable {
    public var light: DeviceEndpoint?
    public var shaker: DeviceEndpoint?

    public init(light: DeviceEndpoint? = nil, shaker: DeviceEndpoint? = nil) {
        self.light = light
        self.shaker = shaker
    }

    /// Every topic a device reports on.
    public var stateTopics: [String] { (light?.stateTopics ?? []) + (shaker?.stateTopics ?? []) }
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
