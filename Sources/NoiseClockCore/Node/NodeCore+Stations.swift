/// The rules stations bring across features: a station an alarm or timer would ring cannot be
/// deleted (`in_use`, naming them); a deleted station that the noise or a routine plays gives way
/// to `brown`, as a deleted mix gives way to its first layer.
extension NodeCore {
    /// `station/*` through the stations feature, after the cross-feature check of `delete`.
    mutating func handleStation(
        _ command: StationCommand, _ payload: CommandPayload, context: FeatureContext, outbox: inout [Publication],
        effects: inout [FeatureEffect]
    ) -> Result<JSONValue, CommandError> {
        if command == .delete, let id = try? payload.id(for: command) {
            let users = stationUsers(Station.soundPrefix + id.lowercased())
            if !users.isEmpty {
                let list = users.prefix(10).joined(separator: ", ") + (users.count > 10 ? " and \(users.count - 10) more" : "")
                return .failure(CommandError(.inUse, field: "id", "station \"\(id.prefix(32))\" is the sound of \(list); change them first"))
            }
        }
        let before = stations.stations
        let result = stations.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        for gone in before where !stations.stations.contains(where: { $0.id == gone.id }) {
            noise.replaceSound(gone.soundID, with: NoiseState.defaults.sound)
            routines.replaceSound(gone.soundID, with: NoiseState.defaults.sound)
        }
        return result
    }

    /// What would ring `sound`: alarms (their sound or pre-alarm sound), running timers and timer
    /// presets, by name (`alarm wake`, `timer 3`, `preset tea`).
    func stationUsers(_ sound: String) -> [String] {
        var users: [String] = []
        for alarm in alarms.book.alarms where alarm.sound == sound || alarm.preAlarmSound == sound { users.append("alarm \(alarm.id)") }
        for timer in timers.timers where timer.sound == sound { users.append("timer \(timer.id)") }
        for preset in timers.presets where preset.sound == sound { users.append("preset \(preset.id)") }
        return users
    }
}

extension NodeCore {
    /// Names the address of every station the scene plays (noise, alarm, pre-alarm, preview, preroll),
    /// and what covers the noise's station while it is down (`stream.fallback_noise`).
    func withStations(_ scene: inout AudioScene) {
        let sounds = [scene.noise?.sound, scene.alarm?.sound, scene.preAlarm?.sound, scene.preview?.sound, scene.preroll?.sound]
        for sound in sounds.compactMap({ $0 }) {
            if let station = soundCatalog.station(ofSound: sound) { scene.stations[sound] = station.url }
        }
        if let sound = scene.noise?.sound, scene.stations[sound] != nil {
            scene.noise?.stationFallback = settings.stream.fallbackNoise.flatMap { soundCatalog.hasNoise($0) ? $0 : nil }
        }
    }
}
