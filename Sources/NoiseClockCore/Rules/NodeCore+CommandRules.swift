/// The rules a command brings beyond its own feature (`FeatureRule`), each written once.
extension NodeCore {
    /// `FeatureRule.aStationInUseIsNotDeleted`.
    func aStationInUseIsNotDeleted(_ topic: CommandTopic, _ payload: CommandPayload) -> CommandError? {
        guard topic == .stations(.delete), let id = try? payload.id(for: StationCommand.delete) else { return nil }
        let users = stationUsers(Station.soundPrefix + id.lowercased())
        guard !users.isEmpty else { return nil }
        let list = users.prefix(10).joined(separator: ", ") + (users.count > 10 ? " and \(users.count - 10) more" : "")
        return CommandError(.inUse, field: "id", "station \"\(id.prefix(32))\" is the sound of \(list); change them first")
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

    /// `FeatureRule.theHandOverridesTheRoutine`.
    mutating func theHandOverridesTheRoutine(_ topic: CommandTopic, result: inout JSONValue, context: FeatureContext, outbox: inout [Publication]) {
        guard case .noise(let command) = topic, command.overridesRoutine, routines.active != nil else { return }
        routines.override(at: context.now, zone: context.zone, outbox: &outbox)
        noise.release()
        result = noise.state.json(zone: context.zone)
    }

    /// `FeatureRule.theLampIsToldAtOnce`.
    mutating func theLampIsToldAtOnce(_ topic: CommandTopic, result: inout JSONValue, context: FeatureContext, outbox: inout [Publication]) {
        guard case .light = topic else { return }
        lampShowsLight(now: context.now, outbox: &outbox)
        result = light.json
    }

    /// `FeatureRule.aDeletedSoundGivesWay`: every mix and station that left, whatever took it away.
    mutating func aDeletedSoundGivesWay(before: NodeCore) {
        var gone: [(sound: String, standIn: String)] = []
        for mix in before.mixes.mixes where !mixes.mixes.contains(where: { $0.id == mix.id }) {
            if let first = mix.layers.first?.sound { gone.append((mix.id, first)) }
        }
        for station in before.stations.stations where !stations.stations.contains(where: { $0.id == station.id }) {
            gone.append((station.soundID, NoiseState.defaults.sound))
        }
        for (sound, standIn) in gone {
            noise.replaceSound(sound, with: standIn)
            routines.replaceSound(sound, with: standIn)
        }
    }
}
