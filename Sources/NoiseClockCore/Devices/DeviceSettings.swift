/// `devices:` in the configuration: where each bridged device is, by its key (`light`,
/// `shaker`: `BridgedDevice.key`); a device left out is not driven.
public struct DeviceSettings: Sendable, Equatable {
    public var endpoints: [String: DeviceEndpoint]

    public init(_ endpoints: [String: DeviceEndpoint] = [:]) {
        self.endpoints = endpoints
    }

    public init(light: DeviceEndpoint? = nil, shaker: DeviceEndpoint? = nil) {
        endpoints = [:]
        self.light = light
        self.shaker = shaker
    }

    public subscript(key: String) -> DeviceEndpoint? {
        get { endpoints[key] }
        set { endpoints[key] = newValue }
    }

    public var light: DeviceEndpoint? {
        get { self[Lamp.key] }
        set { self[Lamp.key] = newValue }
    }

    public var shaker: DeviceEndpoint? {
        get { self[Shaker.key] }
        set { self[Shaker.key] = newValue }
    }

    /// Every topic a device reports on, in the devices' order.
    public var stateTopics: [String] { DeviceList.kinds.flatMap { self[$0.key]?.stateTopics ?? [] } }
}
