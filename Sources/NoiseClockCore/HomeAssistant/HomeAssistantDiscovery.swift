/// Home Assistant MQTT discovery for one node: one device, per-entity discovery topics
/// `{prefix}/{component}/{node}/{object}/config`, every entity wired to the contract's real topics.
///
/// Follows Home Assistant's MQTT docs: `unique_id` makes entities editable and groups them under
/// `device`; `default_entity_id` (`<domain>.<object id>`) suggests the entity id (`object_id` is
/// deprecated and no longer read); `origin` names the software behind the configs.
/// Configs are retained; a config that disappears from `configs` must be cleared with an empty
/// retained payload (`removalTopics`).
public enum HomeAssistantDiscovery {
    public static let manufacturer = "NoiseClock"
    public static let model = "NoiseClock node"
    public static let originName = "NoiseClock"

    /// Every discovery config the node should have retained now, in a stable order.
    public static func configs(_ context: DiscoveryContext) -> [DiscoveryConfig] {
        var entities = noiseEntities(context) + radioEntities(context) + alarmEntities(context) + styleEntities(context)
        entities += context.alarms.flatMap { perAlarmEntities($0, context) }
        entities += programmeEntities(context)
        if context.batteryPresent { entities += batteryEntities(context) }
        entities += wakeEntities(context)
        entities += lightEntities(context)
        entities += voiceEntities(context)
        entities += diagnosticEntities(context)
        return entities.map { config(for: $0, context) } + buttonTriggers(context)
    }

    /// Config topics that were announced before and are gone now (a deleted alarm, a battery
    /// that vanished): publish an empty retained payload on each so Home Assistant removes them.
    public static func removalTopics(previous: [DiscoveryConfig], current: [DiscoveryConfig]) -> [String] {
        let kept = Set(current.map(\.topic))
        return previous.map(\.topic).filter { !kept.contains($0) }
    }

    /// The device every entity of this node belongs to.
    public static func device(_ context: DiscoveryContext) -> JSONValue {
        var object = JSONObject([
            ("identifiers", .array([.string("noiseclock_" + context.nodeID)])),
            ("name", .string("NoiseClock " + context.nodeID)),
            ("manufacturer", .string(manufacturer)),
            ("model", .string(model)),
            ("sw_version", .string(context.softwareVersion)),
        ])
        if let url = context.configurationURL { object["configuration_url"] = .string(url) }
        return .object(object)
    }

    /// The `origin` block: which software published the config.
    public static func origin(_ context: DiscoveryContext) -> JSONValue {
        ["name": .string(originName), "sw_version": .string(context.softwareVersion)]
    }

    /// `noiseclock_<node>_<object>`: stable and distinct across nodes on one broker.
    public static func uniqueID(node: String, object: String) -> String { "noiseclock_\(node)_\(object)" }

    /// `<component>.noiseclock_<node>_<object>`, lower-cased with anything outside `[a-z0-9_]`
    /// made `_` (an entity id's object part allows only those).
    public static func defaultEntityID(component: String, node: String, object: String) -> String {
        component + "." + slug("noiseclock_\(node)_\(object)")
    }

    static func slug(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.map { scalar in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" ? scalar : "_"
        }))
    }

    /// The MQTT filter matching every config topic this node could ever have announced, in any
    /// component: what a node subscribes to in order to find (and clear) configs it no longer has.
    public static func configFilter(prefix: String, nodeID: String) -> String {
        "\(prefix)/+/\(topicLevel(nodeID))/+/config"
    }

    /// A topic level Home Assistant's discovery matcher accepts (`[a-zA-Z0-9_-]+`).
    static func topicLevel(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-") ? scalar : "_"
        }))
        return cleaned.isEmpty ? "_" : cleaned
    }

    private static func config(for entity: DiscoveryEntity, _ context: DiscoveryContext) -> DiscoveryConfig {
        var object = JSONObject([
            ("name", .string(entity.name)),
            ("unique_id", .string(uniqueID(node: context.nodeID, object: entity.objectID))),
            ("default_entity_id", .string(defaultEntityID(component: entity.component, node: context.nodeID, object: entity.objectID))),
        ])
        for (key, value) in entity.keys { object[key] = value }
        if let category = entity.category { object["entity_category"] = .string(category.rawValue) }
        object["availability_topic"] = .string(context.topic("availability"))
        object["payload_available"] = "online"
        object["payload_not_available"] = "offline"
        object["qos"] = 1
        object["device"] = device(context)
        object["origin"] = origin(context)
        let topic = [context.prefix, entity.component, topicLevel(context.nodeID), topicLevel(entity.objectID), "config"]
            .joined(separator: "/")
        return DiscoveryConfig(topic: topic, payload: .object(object))
    }
}
