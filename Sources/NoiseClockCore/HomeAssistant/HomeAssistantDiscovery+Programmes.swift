/// Sleep programme entities: per routine an enabled switch, the routine event entity, per timer
/// preset a start button, the soonest timer end, and a button that cancels every timer. (Mixes
/// join the noise sound select through `noiseSounds`.)
extension HomeAssistantDiscovery {
    public static let routineEventTypes = RoutineEvent.allCases.map(\.rawValue)

    static func programmeEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        var entities = context.routines.map { routineSwitch($0, context) }
        entities.append(DiscoveryEntity("event", "routine_event", name: "Routine event", [
            ("icon", "mdi:weather-night"),
            ("state_topic", .string(context.topic("routine/event"))),
            ("event_types", .array(routineEventTypes.map { .string($0) })),
            ("value_template",
             "{{ {'event_type': value_json.event, 'id': value_json.id, 'label': value_json.label, 'at': value_json.at} | to_json }}"),
        ]))
        entities += context.timerPresets.map { preset in
            DiscoveryEntity("button", "timer_preset_\(preset.id)", name: preset.label, [
                ("icon", "mdi:timer-play-outline"),
                ("command_topic", .string(context.topic(.timers(.start)))),
                ("payload_press", .string(#"{"preset": "\#(preset.id)"}"#)),
            ])
        }
        entities.append(DiscoveryEntity("sensor", "timer_end", name: "Timer end", [
            ("icon", "mdi:timer-outline"),
            ("device_class", "timestamp"),
            ("state_topic", .string(context.topic("timers"))),
            // The running timers' soonest end; "None" (unknown) when none runs.
            ("value_template",
             "{% for t in value_json | sort(attribute='ends_at') %}{% if loop.first %}{{ t.ends_at }}{% endif %}{% else %}None{% endfor %}"),
        ]))
        entities.append(DiscoveryEntity("button", "timer_cancel_all", name: "Cancel timers", [
            ("icon", "mdi:timer-off-outline"),
            ("command_topic", .string(context.topic(.timers(.cancel)))),
            ("payload_press", "all"),
        ]))
        return entities
    }

    /// Reads `~/routines` and picks the routine by id; writes `~/routine/update` with `enabled`.
    static func routineSwitch(_ routine: Routine, _ context: DiscoveryContext) -> DiscoveryEntity {
        let id = routine.id
        return DiscoveryEntity("switch", "routine_\(id)_enabled", name: routine.label, [
            ("icon", "mdi:bed-clock"),
            ("state_topic", .string(context.topic("routines"))),
            ("value_template", .string("{% for r in value_json if r.id == '\(id)' %}{{ 'ON' if r.enabled else 'OFF' }}{% else %}None{% endfor %}")),
            ("command_topic", .string(context.topic(.routines(.update)))),
            ("command_template", .string(#"{"id": "\#(id)", "enabled": {{ 'true' if value == 'ON' else 'false' }}}"#)),
            ("payload_on", "ON"),
            ("payload_off", "OFF"),
        ])
    }
}
