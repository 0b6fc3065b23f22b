/// The largest payload the node takes on each topic it subscribes to (issue 31, finding 7: three
/// 20 MB messages on `{base}/groups/family/ring`, which every node subscribes to, stalled the loop
/// and added 40 MB). The MQTT client asks this on its network thread, before a payload is copied:
///
/// - a command (`~/…`, `{base}/all/…`): 64 KiB (`CommandPayload.maxBytes`); a bigger one is
///   still answered `payload_too_large` (only its size reaches the loop);
/// - this node's Home Assistant discovery configs, found retained: 256 KiB (only whether one is
///   there matters, and a config lists every sound);
/// - anything else (group messages, a lamp's or shaker's state, MQTT buttons, Home Assistant's
///   status): 16 KiB, and a bigger message is dropped with one log line.
///
/// Over MQTT v5 the node also tells the broker its maximum packet size (`maximumPacketBytes`), and
/// the broker drops anything bigger before it is sent (MQTT 3.1.1 has no such property).
public struct InboundLimits: Sendable {
    public struct Cap: Sendable, Equatable {
        public var bytes: Int
        /// Over the cap: answered (a command, `payload_too_large`), or dropped.
        public var answered: Bool
    }

    public static let command = Cap(bytes: CommandPayload.maxBytes, answered: true)
    public static let discoveryConfig = Cap(bytes: 256 * 1024, answered: false)
    public static let other = Cap(bytes: 16 * 1024, answered: false)
    /// MQTT v5 Maximum Packet Size asked of the broker: the largest cap with room for the topic,
    /// properties and header.
    public static let maximumPacketBytes = 512 * 1024

    let topics: TopicScheme
    let discovery: DiscoverySettings

    public init(topics: TopicScheme, discovery: DiscoverySettings) {
        self.topics = topics
        self.discovery = discovery
    }

    public func cap(for topic: String) -> Cap {
        if topics.commandSuffix(of: topic) != nil { return Self.command }
        if discovery.isConfigTopic(topic, nodeID: topics.nodeID) { return Self.discoveryConfig }
        return Self.other
    }
}
