/// The audio and speech status sensors. `~/audio` and `~/speech` say `"status": "unavailable"`
/// (the v1 contract, kept for its clients), but Home Assistant reserves that word for an entity
/// it cannot reach and shows it the same way: a node without a sound device would look broken.
/// The sensors show it as a phrase of their own (`No sound device`, `No voice`); `ok` stays `ok`.
extension HomeAssistantDiscovery {
    /// An enum sensor of `~/<topic>`'s `status`, with `attributes` (payload keys) as attributes.
    static func statusSensor(
        _ objectID: String, name: String, icon: String, topic: String, unavailable shown: String, attributes: [String]
    ) -> DiscoveryEntity {
        let pairs = attributes.map { "'\($0)': value_json.\($0)" }.joined(separator: ", ")
        return DiscoveryEntity("sensor", objectID, name: name, category: .diagnostic, [
            ("icon", .string(icon)),
            ("device_class", "enum"),
            ("options", .array(["ok", .string(shown)])),
            ("state_topic", .string(topic)),
            ("value_template", .string(statusTemplate(unavailable: shown))),
            ("json_attributes_topic", .string(topic)),
            ("json_attributes_template", .string("{{ {\(pairs)} | to_json }}")),
        ])
    }

    /// `status` as the sensor shows it: `unavailable` becomes `shown`, anything else is itself.
    static func statusTemplate(unavailable shown: String) -> String {
        "{{ '\(shown)' if value_json.status == 'unavailable' else value_json.status }}"
    }
}
