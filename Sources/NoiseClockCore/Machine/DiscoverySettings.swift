/// Home Assistant discovery as configured (`home_assistant.*`).
public struct DiscoverySettings: Sendable {
    public var enabled: Bool
    public var prefix: String
    /// The node's web app (`configuration_url` on the device), when it is enabled.
    public var configurationURL: String?

    public init(enabled: Bool, prefix: String, configurationURL: String? = nil) {
        self.enabled = enabled
        self.prefix = prefix
        self.configurationURL = configurationURL
    }

    /// Home Assistant announces itself here; `online` means "send your configs again".
    public var birthTopic: String { "\(prefix)/status" }

    /// Every config topic of this node, whatever the component or object.
    public func configFilter(nodeID: String) -> String { HomeAssistantDiscovery.configFilter(prefix: prefix, nodeID: nodeID) }

    /// Whether `topic` is one of this node's config topics (`{prefix}/{component}/{node}/{object}/config`).
    public func isConfigTopic(_ topic: String, nodeID: String) -> Bool {
        // Most messages are commands: a cheap look at the prefix turns them away.
        guard topic.utf8.starts(with: prefix.utf8), topic.utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: "/") else { return false }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let filter = configFilter(nodeID: nodeID).split(separator: "/", omittingEmptySubsequences: false)
        return levels.count == filter.count && zip(levels, filter).allSatisfy { $1 == "+" || $0 == $1 }
    }

    /// What the node subscribes to besides its commands: its own config topics always (to clear
    /// stale ones), the birth topic only with discovery on.
    public func subscriptions(nodeID: String) -> [String] {
        [configFilter(nodeID: nodeID)] + (enabled ? [birthTopic] : [])
    }
}
