extension NodeMachine.Draft {
    /// `POST /api/restore`: a backup checked whole (`Backup.read`), then every state file it holds
    /// written again and every feature made from them, as at start, in this one input: all of it
    /// or, refused, none of it. A refusal names the entry (`alarms[3].time`); both answers echo the
    /// body's `request_id` (`LocalRequest.requestID`).
    mutating func restore(_ request: LocalRequest) {
        let origin = CommandOrigin.local(request.id)
        switch Backup.read(request.payload) {
        case .failure(let refusal):
            let response = Response(command: request.command, requestID: request.requestID, outcome: .failure(refusal.commandError))
            effects += machine.respond(response, to: origin)
            log(.notice, "restore refused", ["entry": refusal.entry, "message": String(refusal.message.prefix(200))])
        case .success(let contents):
            var next = core
            next.reload(documents: contents.documents, now: now)
            // Every file written, whether or not its bytes changed, and nothing carried over
            // from the files the node started with.
            machine.lastPersisted = [:]
            machine.persistedFrom = [:]
            machine.unknownFields = [:]
            var outbox: [Publication] = []
            next.advance(to: now, outbox: &outbox)
            let result = JSONValue.object(JSONObject([("restored", .object(contents.counts)), ("from_node", .string(contents.nodeID))]))
            refusal = NodePlan.Refusal(command: request.command, requestID: request.requestID, origin: origin)
            let response = Response(command: request.command, requestID: request.requestID, outcome: .success(result))
            commit(next, outbox: outbox, response: (response, origin))
            // The web app's settings (checked by the adapter, as the configuration loader checks
            // them): no feature's, so written here; they apply when the node next starts.
            if let settings = contents.documents[SettingsFile.name] {
                writes.append(StateWrite(file: SettingsFile.name, document: settings, text: settings.serialized))
            }
            log(.notice, "restored from a backup", ["from_node": contents.nodeID, "files": "\(writes.count)"])
        }
    }
}

extension NodeMachine.Draft {
    /// The web app changed the time zone or the language: alarms and routines planned anew,
    /// every retained text rendered again in the new zone and language, `~/time` at once.
    mutating func timeSettings(zone: ZoneRules, locale: NodeLocale) {
        guard zone != core.settings.zone || locale != core.settings.locale else { return }
        var next = core
        var outbox: [Publication] = []
        next.timeSettingsChanged(zone: zone, locale: locale, now: now, outbox: &outbox)
        machine.retainedFrom = [:]
        commit(next, outbox: outbox)
        if machine.online, let info = machine.info { publish("info", info.json(zone: zone).bytes, qos: 1, retain: true) }
        log(.notice, "time zone or language changed; re-planned", ["zone": zone.identifier, "locale": locale.rawValue])
    }
}
