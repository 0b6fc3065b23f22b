extension NodeMachine.Draft {
    /// `~/station/test`: a station's id (plain, or `{"id"}`) or `{"url"}`; answered when the probe
    /// comes back (`stationProbed`), through its `DeferredReply`.
    mutating func testStation(_ payload: CommandPayload, reply: DeferredReply) {
        let url: String
        do throws(CommandError) {
            url = try Self.probeURL(payload, stations: core.stations)
        } catch {
            refuse(reply, error)
            return
        }
        guard !machine.features.probes.isFull else {
            refuse(reply, CommandError(.limitExceeded, "at most \(StationProbes.limit) station tests at once"))
            return
        }
        guard !machine.features.probes.isRateLimited(now: now) else {
            refuse(reply, CommandError(.rateLimited, "at most \(StationProbes.perMinute) station tests a minute"))
            return
        }
        let id = machine.features.probes.wait(reply, now: now)
        effects.append(.probeStation(StationProbeRequest(id: id, url: url)))
        log(.info, "station test", ["url": String(url.prefix(120))])
    }

    static func probeURL(_ payload: CommandPayload, stations: StationsFeature) throws(CommandError) -> String {
        if case .json(.object(let object)) = payload, let value = object["url"] {
            try ProgrammeFields.rejectUnknown(object, known: ["url"], ignored: ["request_id"])
            return try Station.url(value)
        }
        let id: String
        switch payload {
        case .plain(let text), .json(.string(let text)): id = text.lowercased()
        case .json(.object(let object)):
            try ProgrammeFields.rejectUnknown(object, known: ["id"], ignored: ["request_id"])
            guard let text = object["id"]?.stringValue else { throw .invalidField("id", "station/test takes a station id or {\"url\"}") }
            id = text.lowercased()
        default: throw .invalidField("id", "station/test takes a station id or {\"url\"}")
        }
        guard let station = stations.station(id) else { throw StationsFeature.notFound(id) }
        return station.url
    }

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
