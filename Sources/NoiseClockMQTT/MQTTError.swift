import CMosquitto

public struct MQTTError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// libmosquitto's process-wide initialisation, done once before the first client.
enum MQTTLibrary {
    private static let initialized: Bool = {
        mosquitto_lib_init()
        return true
    }()

    static func initialize() { _ = initialized }
}
