/// Speech (v1.2): a "Speak time" button, a notify entity whose message the node says, and the
/// speech status as a diagnostic.
extension HomeAssistantDiscovery {
    static func voiceEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        [
            DiscoveryEntity("button", "speak_time", name: "Speak time", [
                ("icon", "mdi:account-voice"),
                ("command_topic", .string(context.topic(.voice(.speakTime)))),
                ("payload_press", ""),
            ]),
            // `notify.send_message`: the message (its `title` is not said) goes to `~/say` as
            // `{"text": ...}`, so a message that starts with `{` is still said as written.
            DiscoveryEntity("notify", "say", name: "Say", [
                ("icon", "mdi:bullhorn"),
                ("command_topic", .string(context.topic(.voice(.say)))),
                ("command_template", "{{ {'text': value} | to_json }}"),
            ]),
            statusSensor("speech_status", name: "Speech", icon: "mdi:account-voice", topic: context.topic("speech"),
                         unavailable: "No voice", attributes: ["voice", "error"]),
        ]
    }
}
