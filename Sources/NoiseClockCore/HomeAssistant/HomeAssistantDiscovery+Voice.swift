/// Speech (v1.2): a "Speak time" button, a notify entity whose message the node says, and the
/// speech status as a diagnostic.
extension HomeAssistantDiscovery {
    static func voiceEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        let speech = JSONValue.string(context.topic("speech"))
        return [
            DiscoveryEntity("button", "speak_time", name: "Speak time", [
                ("icon", "mdi:account-voice"),
                ("command_topic", .string(context.topic("speak/time"))),
                ("payload_press", ""),
            ]),
            // `notify.send_message`: the message (its `title` is not said) goes to `~/say` as
            // `{"text": ...}`, so a message that starts with `{` is still said as written.
            DiscoveryEntity("notify", "say", name: "Say", [
                ("icon", "mdi:bullhorn"),
                ("command_topic", .string(context.topic("say"))),
                ("command_template", "{{ {'text': value} | to_json }}"),
            ]),
            DiscoveryEntity("sensor", "speech_status", name: "Speech", category: .diagnostic, [
                ("icon", "mdi:account-voice"),
                ("device_class", "enum"),
                ("options", .array(["ok", "unavailable"])),
                ("state_topic", speech),
                ("value_template", "{{ value_json.status }}"),
                ("json_attributes_topic", speech),
                ("json_attributes_template", "{{ {'voice': value_json.voice, 'error': value_json.error} | to_json }}"),
            ]),
        ]
    }
}
