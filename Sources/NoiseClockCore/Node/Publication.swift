/// One message the node publishes. `topic` is relative to the node's own prefix `~/`.
public struct Publication: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case json(JSONValue)
        case text(String)

        public var bytes: [UInt8] {
            switch self {
            case .json(let value): value.bytes
            case .text(let text): Array(text.utf8)
            }
        }
    }

    public var topic: String
    public var body: Body
    public var retain: Bool
    public var qos: Int32
    /// `topic` is below the base topic (`{base}/groups/…`), not below the node's own root.
    public var underBase = false
    /// `topic` is a bridged device's own (`zigbee2mqtt/lamp/set`): a command to it (`.device`).
    public var absolute = false

    public init(topic: String, body: Body, retain: Bool, qos: Int32, underBase: Bool = false, absolute: Bool = false) {
        self.topic = topic
        self.body = body
        self.retain = retain
        self.qos = qos
        self.underBase = underBase
        self.absolute = absolute
    }

    /// A non-retained QoS 1 event (alarm events, responses).
    public static func event(_ topic: String, _ value: JSONValue) -> Publication {
        Publication(topic: topic, body: .json(value), retain: false, qos: 1)
    }
}
