/// Contract v1.1 entities for waking: the alarms' pause as a date text, and whether the clock is
/// synchronised (a diagnostic). The new alarm event types come with `AlarmEvent` itself.
extension HomeAssistantDiscovery {
    /// `YYYY-MM-DD`, or empty: not paused.
    public static let pauseDatePattern = #"^(\d{4}-\d{2}-\d{2})?$"#

    static func wakeEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        [
            // Writing a date pauses until it; clearing the text resumes (`alarms/pause` with an
            // empty `until` ends the pause, so one command topic serves both).
            DiscoveryEntity("text", "alarms_paused_until", name: "Alarms paused until", [
                ("icon", "mdi:alarm-snooze"),
                ("state_topic", .string(context.topic("alarm"))),
                ("value_template", "{{ value_json.paused_until or '' }}"),
                ("command_topic", .string(context.topic(.alarms(.pause)))),
                ("command_template", #"{"until": {{ value | to_json }}}"#),
                ("pattern", .string(pauseDatePattern)),
                ("min", 0),
                ("max", 10),
                ("mode", "text"),
            ]),
            DiscoveryEntity("binary_sensor", "clock_synced", name: "Clock synchronised", category: .diagnostic, [
                ("icon", "mdi:clock-check-outline"),
                ("state_topic", .string(context.topic("time"))),
                // null (the kernel cannot tell) is "None": unknown in Home Assistant.
                ("value_template", "{{ 'None' if value_json.synced is none else ('ON' if value_json.synced else 'OFF') }}"),
                ("payload_on", "ON"),
                ("payload_off", "OFF"),
            ]),
            // v1.2 readiness: on when the next alarm will be heard; the problems as attributes.
            DiscoveryEntity("binary_sensor", "alarm_ready", name: "Alarm ready", [
                ("icon", "mdi:alarm-check"),
                ("state_topic", .string(context.topic("alarm"))),
                ("value_template", "{{ 'None' if value_json.ready is none else ('ON' if value_json.ready.ok else 'OFF') }}"),
                ("payload_on", "ON"),
                ("payload_off", "OFF"),
                ("json_attributes_topic", .string(context.topic("alarm"))),
                ("json_attributes_template",
                 "{{ {'problems': value_json.ready.problems, 'checked_at': value_json.ready.checked_at} | to_json if value_json.ready else '{}' }}"),
            ]),
        ]
    }
}
