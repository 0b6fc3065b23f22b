/// Each button's gestures as MQTT device triggers (`device_automation`), so Home Assistant
/// automations can use the node's buttons ("when bedside is held ..."). A trigger is not an
/// entity: no name, unique id or availability; it matches `~/button/event` by its
/// `value_template`'s `<button>:<gesture>`.
extension HomeAssistantDiscovery {
    /// Home Assistant's trigger type for each gesture (its translated names).
    static func triggerType(_ gesture: ButtonGesture) -> String {
        switch gesture {
        case .press: "button_short_press"
        case .double: "button_double_press"
        case .hold: "button_long_press"
        }
    }

    static func buttonTriggers(_ context: DiscoveryContext) -> [DiscoveryConfig] {
        context.buttons.flatMap { button in
            ButtonGesture.allCases.map { gesture in
                let payload: JSONValue = .object(JSONObject([
                    ("automation_type", "trigger"),
                    ("topic", .string(context.topic("button/event"))),
                    ("value_template", "{{ value_json.button ~ ':' ~ value_json.gesture }}"),
                    ("payload", .string("\(button):\(gesture.rawValue)")),
                    ("type", .string(triggerType(gesture))),
                    ("subtype", .string(button)),
                    ("qos", 1),
                    ("device", device(context)),
                    ("origin", origin(context)),
                ]))
                let object = "button_\(button)_\(gesture.rawValue)"
                let topic = [context.prefix, "device_automation", topicLevel(context.nodeID), topicLevel(object), "config"].joined(separator: "/")
                return DiscoveryConfig(topic: topic, payload: payload)
            }
        }
    }
}
