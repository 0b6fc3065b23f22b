/// One entity before it becomes a discovery message: its platform, a stable object id, a display
/// name and the platform-specific keys. The builder adds the keys every entity shares.
struct DiscoveryEntity {
    enum Category: String {
        case config, diagnostic
    }

    var component: String
    /// Stable, `[a-zA-Z0-9_-]`; part of the topic, the unique id and the suggested entity id.
    var objectID: String
    var name: String
    var category: Category?
    var keys: [(String, JSONValue)]

    init(_ component: String, _ objectID: String, name: String, category: Category? = nil, _ keys: [(String, JSONValue)]) {
        self.component = component
        self.objectID = objectID
        self.name = name
        self.category = category
        self.keys = keys
    }
}
