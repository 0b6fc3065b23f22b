/// The light (v1.2) as a Home Assistant MQTT light, template schema: `~/light/set` takes the
/// node's own JSON, so the templates translate Home Assistant's 0–255 brightness, mireds and RGB.
extension HomeAssistantDiscovery {
    static let lightOnTemplate: String = #"{"state": "ON""#
        + #"{% if brightness is defined %}, "brightness": {{ [1, (brightness / 2.55) | round(0) | int] | max }}{% endif %}"#
        + #"{% if color_temp is defined %}, "kelvin": {{ (1000000 / color_temp) | round(0) | int }}{% endif %}"#
        + ##"{% if red is defined and green is defined and blue is defined %}"##
        + ##", "color": "#{{ '%02X%02X%02X' | format(red, green, blue) }}"{% endif %}"##
        + #"{% if transition is defined %}, "transition": {{ transition | round(0) | int }}{% endif %}}"#
    static let lightOffTemplate = #"{"state": "OFF"{% if transition is defined %}, "transition": {{ transition | round(0) | int }}{% endif %}}"#

    static func lightEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        [
            DiscoveryEntity("light", "light", name: "Light", [
                ("icon", "mdi:weather-sunset-up"),
                ("schema", "template"),
                ("state_topic", .string(context.topic("light"))),
                ("command_topic", .string(context.topic(.light(.set)))),
                ("command_on_template", .string(lightOnTemplate)),
                ("command_off_template", .string(lightOffTemplate)),
                ("state_template", "{{ value_json.state | lower }}"),
                ("brightness_template", "{{ (value_json.brightness * 2.55) | round(0) | int }}"),
                ("color_temp_template", "{{ (1000000 / value_json.kelvin) | round(0) | int if value_json.kelvin else None }}"),
                ("red_template", "{{ value_json.color[1:3] | int(base=16) if value_json.color else None }}"),
                ("green_template", "{{ value_json.color[3:5] | int(base=16) if value_json.color else None }}"),
                ("blue_template", "{{ value_json.color[5:7] | int(base=16) if value_json.color else None }}"),
            ]),
        ]
    }
}
