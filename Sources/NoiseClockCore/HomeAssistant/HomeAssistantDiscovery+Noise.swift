/// Noise machine entities, on `~/noise` (NoiseState JSON) and the plain `noise/*` commands.
extension HomeAssistantDiscovery {
    static func noiseEntities(_ context: DiscoveryContext) -> [DiscoveryEntity] {
        let state = JSONValue.string(context.topic("noise"))
        return [
            DiscoveryEntity("switch", "noise", name: "Noise", [
                ("icon", "mdi:waveform"),
                ("state_topic", state),
                ("value_template", "{{ 'ON' if value_json.playing else 'OFF' }}"),
                ("command_topic", .string(context.topic(.noise(.set)))),
                ("payload_on", "ON"),
                ("payload_off", "OFF"),
            ]),
            DiscoveryEntity("select", "noise_sound", name: "Noise sound", [
                ("icon", "mdi:playlist-music"),
                ("state_topic", state),
                ("value_template", "{{ value_json.sound }}"),
                ("command_topic", .string(context.topic(.noise(.setSound)))),
                ("options", .array(context.noiseSounds.map { .string($0.id) })),
            ]),
            DiscoveryEntity("number", "noise_volume", name: "Noise volume", [
                ("icon", "mdi:volume-high"),
                ("state_topic", state),
                ("value_template", "{{ value_json.volume }}"),
                ("command_topic", .string(context.topic(.noise(.setVolume)))),
                ("min", .int(Int64(NoiseState.volumeRange.lowerBound))),
                ("max", .int(Int64(NoiseState.volumeRange.upperBound))),
                ("step", 1),
                ("mode", "slider"),
                ("unit_of_measurement", "%"),
            ]),
            DiscoveryEntity("number", "noise_sleep_timer", name: "Noise sleep timer", [
                ("icon", "mdi:timer-sand"),
                ("state_topic", state),
                // null (no timer) shows as 0, which is also what clears it.
                ("value_template", "{{ value_json.sleep_timer_minutes if value_json.sleep_timer_minutes is not none else 0 }}"),
                ("command_topic", .string(context.topic(.noise(.setSleepTimer)))),
                ("min", .int(Int64(NoiseState.sleepTimerRange.lowerBound))),
                ("max", .int(Int64(NoiseState.sleepTimerRange.upperBound))),
                ("step", 1),
                ("mode", "box"),
                ("unit_of_measurement", "min"),
            ]),
            // A button sends a fixed payload: empty means "preview the selected noise sound".
            DiscoveryEntity("button", "noise_preview", name: "Preview noise", [
                ("icon", "mdi:play-circle-outline"),
                ("command_topic", .string(context.topic(.noise(.preview)))),
                ("payload_press", ""),
            ]),
        ]
    }
}
