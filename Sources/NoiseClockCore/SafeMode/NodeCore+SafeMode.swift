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

extension NodeCore {
    /// `~/safe_mode/exit`: answered first (`{"restarting": true}`), then the process clears the
    /// count and starts again (`FeatureEffect.exitSafeMode`). A node not in safe mode answers
    /// `{"restarting": false}` and stays.
    func applySafeMode(_ command: SafeModeCommand, _ payload: CommandPayload, output: inout FeatureOutput) throws(CommandError) -> JSONValue {
        switch command {
        case .exit:
            try payload.requireEmpty(for: command)
            let restarting = settings.safeMode != nil
            if restarting { output.effects.append(.exitSafeMode) }
            return ["restarting": .bool(restarting)]
        }
    }
}
