/// Safe mode's rules in the core (mqtt-api v1.4): stations are out of the catalog
/// (`soundCatalog`), a ring on a station sounds the fallback tone from its first instant, every
/// `sounding` says `"reason": "safe_mode"`, and every readiness check names `safe_mode`.
extension AlarmsFeature {
    /// The ring's station is not tried: its fallback starts now, cause `safe_mode`.
    mutating func ringWithoutStation(now: Instant) {
        guard var session = ring, session.phase == .ringing, session.stationSound != nil, session.activeStreamFallback == nil else { return }
        session.streamFallback = StreamFallback(cause: "safe_mode", at: now, ringSince: session.since)
        ring = session
    }
}

extension NodeMachine.Draft {
    /// Safe mode's readiness check: no probe goes out (every probe is off); the check is answered
    /// at once with what the core knows, `safe_mode` first.
    mutating func answerReadinessInSafeMode() -> Bool {
        guard core.settings.safeMode != nil else { return false }
        var next = core
        _ = next.readinessRequested(now: now)
        machine.core = next
        readiness(ReadinessReport(clockSynced: core.clockSynced))
        return true
    }
}

extension NodeMachine.Draft {
    /// `~/safe_mode/exit`: answered first (`{"restarting": true}`), then the process clears the
    /// count and starts again. A node not in safe mode answers `{"restarting": false}` and stays.
    mutating func exitSafeMode(_ payload: CommandPayload, reply: DeferredReply) {
        do {
            try MachineCommand.safeModeExit.requireEmpty(payload)
        } catch {
            return refuse(reply, error)
        }
        let restarting = core.settings.safeMode != nil
        effects += machine.respond(reply.response(.success(["restarting": .bool(restarting)])), to: reply.origin)
        log(.info, "command", ["command": reply.command, "ok": "true"])
        guard restarting else { return }
        log(.notice, "leaving safe mode: the crash count is cleared and the node starts again", [:])
        effects.append(.exitSafeMode)
    }
}
