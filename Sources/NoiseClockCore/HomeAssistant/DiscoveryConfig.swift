/// One retained discovery message: `{prefix}/{component}/{node}/{object}/config` and its JSON.
public struct DiscoveryConfig: Sendable, Equatable {
    public var topic: String
    public var payload: JSONValue

    public init(topic: String, payload: JSONValue) {
        self.topic = topic
        self.payload = payload
    }

    /// The Home Assistant platform, read back from the topic (`switch`, `sensor`, ...).
    public var component: String {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 4 ? String(parts[parts.count - 4]) : ""
    }
}
