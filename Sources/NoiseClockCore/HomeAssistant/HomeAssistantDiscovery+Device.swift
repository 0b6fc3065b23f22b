/// Style switches and preset, battery and the audio diagnostic.
extension HomeAssistantDiscovery {
    static func styleEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        let style = JSONValue.string(context.topic("style"))
        let set = JSONValue.string(context.topic(.style(.set)))
        func toggle(_ field: String, _ object: String, _ name: String, _ icon: String) -> DiscoveryEntity {
            DiscoveryEntity("switch", object, name: name, category: .config, [
                ("icon", .string(icon)),
                ("state_topic", style),
                ("value_template", .string("{{ 'ON' if value_json.\(field) else 'OFF' }}")),
                ("command_topic", set),
                ("command_template", .string(#"{"\#(field)": {{ 'true' if value == 'ON' else 'false' }}}"#)),
                ("payload_on", "ON"),
                ("payload_off", "OFF"),
            ])
        }
        return [
            toggle("use_24_hour", "style_24_hour", "24-hour clock", "mdi:hours-24"),
            toggle("show_seconds", "style_show_seconds", "Show seconds", "mdi:timer-outline"),
            // No state topic: the node does not publish which preset is "current", so Home
            // Assistant runs this select optimistically and remembers the last choice.
            DiscoveryEntity("select", "style_preset", name: "Style preset", category: .config, [
                ("icon", "mdi:theme-light-dark"),
                ("command_topic", .string(context.topic(.style(.preset)))),
                ("options", .array(StylePreset.allCases.map { .string($0.rawValue) })),
            ]),
        ]
    }

    static func batteryEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        let battery = JSONValue.string(context.topic("battery"))
        return [
            DiscoveryEntity("sensor", "battery", name: "Battery", category: .diagnostic, [
                ("device_class", "battery"),
                ("unit_of_measurement", "%"),
                ("state_class", "measurement"),
                ("state_topic", battery),
                ("value_template", "{{ value_json.level if value_json.present else 'None' }}"),
            ]),
            DiscoveryEntity("binary_sensor", "battery_charging", name: "Charging", category: .diagnostic, [
                ("device_class", "battery_charging"),
                ("state_topic", battery),
                ("value_template", "{{ 'ON' if value_json.charging else 'OFF' }}"),
                ("payload_on", "ON"),
                ("payload_off", "OFF"),
            ]),
        ]
    }

    static func diagnosticEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        [
            statusSensor("audio_status", name: "Audio", icon: "mdi:speaker", topic: context.topic("audio"),
                         unavailable: "No sound device", attributes: ["device", "error"]),
            // v1.4 safe mode: a problem while the node runs with every optional part off, why as attributes.
            DiscoveryEntity("binary_sensor", "safe_mode", name: "Safe mode", category: .diagnostic, [
                ("device_class", "problem"),
                ("state_topic", .string(context.topic("info"))),
                ("value_template", "{{ 'ON' if value_json.safe_mode else 'OFF' }}"),
                ("payload_on", "ON"),
                ("payload_off", "OFF"),
                ("json_attributes_topic", .string(context.topic("info"))),
                ("json_attributes_template", "{{ value_json.safe_mode | to_json if value_json.safe_mode else '{}' }}"),
            ]),
        ]
    }
}
