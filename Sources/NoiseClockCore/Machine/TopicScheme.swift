/// The node's topic names: `~` is `{base}/{node}`; commands are also taken under `{base}/all/`.
public struct TopicScheme: Sendable {
    public let base: String
    public let nodeID: String

    public init(base: String, nodeID: String) {
        self.base = base
        self.nodeID = nodeID
    }

    public var root: String { "\(base)/\(nodeID)" }
    public var groupRoot: String { "\(base)/all" }

    public func topic(_ suffix: String) -> String { "\(root)/\(suffix)" }

    /// Every command of the table that has an MQTT topic (`CommandName.allCases`: the features', the
    /// machine's own, not the web app's), under `~/` and `{base}/all/`: the one place the node's
    /// command subscriptions are made. Exact topics, never a wildcard that would also catch the node's own output.
    public var commandSubscriptions: [String] {
        CommandName.allCases.filter { $0.notOverMQTT == nil }.flatMap { ["\(root)/\($0.rawValue)", "\(groupRoot)/\($0.rawValue)"] }
    }

    /// Alarm groups' messages, from every node (v1.2).
    public var groupRingSubscription: String { "\(base)/groups/+/ring" }

    /// `family` for `noiseclock/groups/family/ring`; nil otherwise.
    public func group(ofRingTopic topic: String) -> String? {
        let prefix = base + "/groups/"
        guard topic.hasPrefix(prefix), topic.hasSuffix("/ring") else { return nil }
        let group = String(topic.dropFirst(prefix.count).dropLast("/ring".count))
        return Alarm.isValidGroup(group) ? group : nil
    }

    /// `alarm/add` for `noiseclock/bedroom/alarm/add` or `noiseclock/all/alarm/add`; nil otherwise.
    public func commandSuffix(of topic: String) -> String? {
        for prefix in [root + "/", groupRoot + "/"] where topic.hasPrefix(prefix) {
            return String(topic.dropFirst(prefix.count))
        }
        return nil
    }
}
