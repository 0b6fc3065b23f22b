extension NodeMachine.Draft {
    /// The probe came back: the waiting `station/test` is answered.
    mutating func stationProbed(_ outcome: StationProbeOutcome) {
        guard let reply = machine.features.probes.answer(outcome.id) else { return }
        let result = outcome.result.mapError { failure in
            CommandError(.streamUnavailable, "no audio from the station (\(failure.cause))", cause: failure.cause)
        }
        effects += machine.respond(reply.response(result), to: reply.origin)
    }

    /// A station's title: `~/noise` shows it while the noise plays that station.
    mutating func stationTitle(_ title: StationTitle) {
        guard core.noise.state.title != title else { return }
        var next = core
        next.noise.state.title = title
        commit(next, outbox: [])
    }

    /// A station playing as noise went down or came back: `~/noise` says `error` while it is down.
    mutating func stationOutage(_ outage: StationOutage) {
        // Only the noise's own station: a preview's or an old voice's word is not news.
        guard outage.cause == nil || outage.sound == core.noise.state.sound else { return }
        let next = outage.cause == nil ? nil : outage
        guard core.noise.state.outage != next else { return }
        var draft = core
        draft.noise.state.outage = next
        commit(draft, outbox: [])
    }
}
