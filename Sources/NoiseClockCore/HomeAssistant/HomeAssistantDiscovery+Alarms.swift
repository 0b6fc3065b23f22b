/// Alarm entities: the ring state and next alarm from `~/alarm`, lifecycle events from
/// `~/alarm/event`, snooze and dismiss buttons, and per alarm an enabled switch and a time text.
extension HomeAssistantDiscovery {
    /// What Home Assistant's event entity may receive; the same set as `AlarmEvent`.
    public static let alarmEventTypes = AlarmEvent.allCases.map(\.rawValue) + ReadinessEvent.allCases.map(\.rawValue)
    public static let alarmStates = ["idle", "ringing", "snoozed"]
    /// `HH:MM`, 24-hour: the form the node publishes and the text entity accepts.
    public static let alarmTimePattern = #"^([01]\d|2[0-3]):[0-5]\d$"#

    static func alarmEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        let alarmState = JSONValue.string(context.topic("alarm"))
        return [
            DiscoveryEntity("sensor", "next_alarm", name: "Next alarm", [
                ("icon", "mdi:alarm"),
                ("device_class", "timestamp"),
                ("state_topic", alarmState),
                // "None" is Home Assistant's word for unknown: no alarm is planned.
                ("value_template", "{{ value_json.next.at if value_json.next else 'None' }}"),
                ("json_attributes_topic", alarmState),
                ("json_attributes_template",
                 "{{ {'alarm_id': value_json.next.id, 'label': value_json.next.label} | to_json if value_json.next else '{}' }}"),
            ]),
            DiscoveryEntity("sensor", "alarm_state", name: "Alarm state", [
                ("icon", "mdi:alarm-bell"),
                ("device_class", "enum"),
                ("options", .array(alarmStates.map { .string($0) })),
                ("state_topic", alarmState),
                ("value_template", "{{ value_json.state }}"),
                ("json_attributes_topic", alarmState),
                ("json_attributes_template",
                 .string("{{ {'alarm_id': value_json.alarm_id, 'label': value_json.label, 'since': value_json.since, "
                    + "'snooze_until': value_json.snooze_until} | to_json }}")),
            ]),
            // The event entity needs `event_type`; AlarmEvent calls it `event`. The rest become attributes.
            DiscoveryEntity("event", "alarm_event", name: "Alarm event", [
                ("icon", "mdi:alarm-note"),
                ("state_topic", .string(context.topic("alarm/event"))),
                ("event_types", .array(alarmEventTypes.map { .string($0) })),
                ("value_template", .string(eventValueTemplate)),
            ]),
            DiscoveryEntity("button", "alarm_snooze", name: "Snooze alarm", [
                ("icon", "mdi:alarm-snooze"),
                ("command_topic", .string(context.topic(.alarms(.snooze)))),
                ("payload_press", ""),
            ]),
            DiscoveryEntity("button", "alarm_dismiss", name: "Dismiss alarm", [
                ("icon", "mdi:alarm-off"),
                ("command_topic", .string(context.topic(.alarms(.dismiss)))),
                ("payload_press", ""),
            ]),
        ]
    }

    static let eventValueTemplate = "{{ {'event_type': value_json.event, 'id': value_json.id, 'label': value_json.label, "
        + "'sound': value_json.sound, 'volume': value_json.volume, 'vibrate': value_json.vibrate, "
        + "'scheduled': value_json.scheduled, 'at': value_json.at, 'snooze_count': value_json.snooze_count, "
        + "'test': value_json.test, 'source': value_json.source, "
        // The failsafe's fields come only with `sounding` and `failed`.
        + "'fallback': value_json['fallback'] if 'fallback' in value_json else none, "
        + "'reason': value_json['reason'] if 'reason' in value_json else none, "
        + "'error': value_json['error'] if 'error' in value_json else none} | to_json }}"

    /// The object id of one alarm's entities: `alarm_<id>_<what>` (alarm ids are `[A-Za-z0-9_-]`).
    public static func alarmObjectID(_ alarmID: String, _ what: String) -> String { "alarm_\(alarmID)_\(what)" }

    /// Enabled switch, time text, sunrise minutes, speak-time switch and sound select for one alarm; all read
    /// `~/alarms` and pick the alarm by id, all write `~/alarm/update` with only the field they change. Names follow the label.
    static func perAlarmEntities(_ alarm: Alarm, _ context: DiscoveryContext) -> [DiscoveryEntity] {
        let alarms = JSONValue.string(context.topic("alarms"))
        let update = JSONValue.string(context.topic(.alarms(.update)))
        let id = alarm.id
        return [
            alarmSwitch(id, "enabled", name: alarm.label, icon: "mdi:alarm-check", alarms: alarms, update: update),
            DiscoveryEntity("text", alarmObjectID(id, "time"), name: alarm.label + " time", [
                ("icon", "mdi:clock-outline"),
                ("state_topic", alarms),
                ("value_template", .string(selectAlarm(id, "a.time"))),
                ("command_topic", update),
                ("command_template", .string(#"{"id": "\#(id)", "time": {{ value | to_json }}}"#)),
                ("pattern", .string(alarmTimePattern)),
                ("mode", "text"),
            ]),
            // v1.2: the sunrise before this alarm, in minutes (0: none).
            DiscoveryEntity("number", alarmObjectID(id, "light_minutes"), name: alarm.label + " sunrise", [
                ("icon", "mdi:weather-sunset-up"),
                ("state_topic", alarms),
                ("value_template", .string(selectAlarm(id, "a.light_minutes"))),
                ("command_topic", update),
                ("command_template", .string(#"{"id": "\#(id)", "light_minutes": {{ value | int }}}"#)),
                ("min", 0),
                ("max", 60),
                ("step", 1),
                ("mode", "box"),
                ("unit_of_measurement", "min"),
            ]),
            // v1.2: say the time and the label when it rings.
            alarmSwitch(id, "speak_time", name: alarm.label + " speak time", icon: "mdi:account-voice", alarms: alarms, update: update),
            // v1.3: its sound, the radio stations among the options.
            alarmSoundSelect(alarm, context),
        ]
    }

    /// A switch for one of the alarm's boolean fields: on when the field is true, and each turn
    /// writes only that field with `~/alarm/update`.
    static func alarmSwitch(_ id: String, _ field: String, name: String, icon: String, alarms: JSONValue, update: JSONValue) -> DiscoveryEntity {
        DiscoveryEntity("switch", alarmObjectID(id, field), name: name, [
            ("icon", .string(icon)),
            ("state_topic", alarms),
            ("value_template", .string(selectAlarm(id, "'ON' if a.\(field) else 'OFF'"))),
            ("command_topic", update),
            ("command_template", .string(#"{"id": "\#(id)", "\#(field)": {{ 'true' if value == 'ON' else 'false' }}}"#)),
            ("payload_on", "ON"),
            ("payload_off", "OFF"),
        ])
    }

    /// Renders `expression` for the alarm with this id in the `~/alarms` array, `None` (unknown) if absent.
    static func selectAlarm(_ id: String, _ expression: String) -> String {
        "{% for a in value_json if a.id == '\(id)' %}{{ \(expression) }}{% else %}None{% endfor %}"
    }
}
