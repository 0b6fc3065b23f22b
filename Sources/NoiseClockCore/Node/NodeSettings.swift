/// What the core needs to know of the configuration: fixed for the life of the process.
public struct NodeSettings: Sendable {
    public var nodeID: String
    public var locale: NodeLocale
    public var zone: ZoneRules

    public init(nodeID: String, locale: NodeLocale, zone: ZoneRules) {
        self.nodeID = nodeID
        self.locale = locale
        self.zone = zone
    }
}
