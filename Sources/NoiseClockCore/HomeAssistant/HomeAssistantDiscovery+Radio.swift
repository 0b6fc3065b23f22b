/// Radio in Home Assistant (v1.3): the "Now playing" sensor (`~/noise` `title`), and each alarm's
/// sound select, whose options are the alarm sounds and the stations (the noise sound select has
/// the stations through the catalog's noise entries).
extension HomeAssistantDiscovery {
    /// Home Assistant refuses a sensor state longer than this; a stream's title may be 256 characters.
    static let sensorStateLimit = 255

    static func radioEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        let noise = JSONValue.string(context.topic("noise"))
        return [
            // "None" is Home Assistant's word for unknown: nothing plays, or the station names nothing.
            DiscoveryEntity("sensor", "now_playing", name: "Now playing", [
                ("icon", "mdi:radio"),
                ("state_topic", noise),
                ("value_template", .string("{{ value_json.title[:\(sensorStateLimit)] if value_json.title else 'None' }}")),
                ("json_attributes_topic", noise),
                ("json_attributes_template", "{{ {'station': value_json.station} | to_json }}"),
            ]),
        ]
    }

    /// The alarm's `sound` as a select: the alarm sounds, the stations (`radio:<id>`) and `none`;
    /// a sound the catalog no longer has stays an option while the alarm has it, so the state is one of them.
    static func alarmSoundSelect(_ alarm: Alarm, _ context: DiscoveryContext) -> DiscoveryEntity {
        var options = context.alarmSounds.map(\.id)
        for sound in [alarm.sound, "none"] where !options.contains(sound) { options.append(sound) }
        return DiscoveryEntity("select", alarmObjectID(alarm.id, "sound"), name: alarm.label + " sound", [
            ("icon", "mdi:music-note"),
            ("state_topic", .string(context.topic("alarms"))),
            ("value_template", .string(selectAlarm(alarm.id, "a.sound"))),
            ("command_topic", .string(context.topic(.alarms(.update)))),
            ("command_template", .string(#"{"id": "\#(alarm.id)", "sound": {{ value | to_json }}}"#)),
            ("options", .array(options.map { .string($0) })),
        ])
    }
}
