extension NodeMachine.Draft {
    /// Sends a probe when the schedule says a check is due or someone asked (`~/alarm/check`).
    mutating func checkReadinessIfDue() {
        guard !core.readinessSchedule.inFlight, core.readinessDue(now: now) || machine.features.checks.anyWaiting else { return }
        if answerReadinessInSafeMode() { return }
        var next = core
        let probe = next.readinessRequested(now: now)
        machine.core = next
        effects.append(.checkReadiness(probe))
    }

    /// The adapters' answer: `~/alarm` `ready`, the event if any, then every waiting `~/alarm/check`.
    mutating func readiness(_ report: ReadinessReport) {
        var next = core
        var outbox: [Publication] = []
        next.readinessReported(report, now: now, outbox: &outbox)
        let problems = report.problems.map(\.code.rawValue).joined(separator: ",")
        log(report.problems.isEmpty ? .debug : .warning, "alarm readiness checked", ["problems": problems])
        if let heal = report.healed, next.stations.station(heal.stationID)?.url == heal.to {
            log(.notice, "station moved; its new address plays and replaces the old", ["station": heal.stationID, "url": String(heal.to.prefix(120))])
        }
        commit(next, outbox: outbox)
        let result = next.alarms.readiness?.json(zone: next.settings.zone) ?? .null
        for (response, origin) in machine.features.checks.answer(result) {
            effects += machine.respond(response, to: origin)
        }
    }
}
