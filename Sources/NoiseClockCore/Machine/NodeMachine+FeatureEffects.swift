/// What a feature's command asked of the world (`FeatureEffect`), carried out: the feature
/// decided it; the machine bounds the resource it draws on, keeps the reply of a command answered
/// later (with its `request_id`), and hands the adapter its `NodeEffect`.
extension NodeMachine.Draft {
    /// Why the effects cannot be carried out now (a limit), or nil. Checked before anything of
    /// the command is kept, so a refused command changes nothing.
    func overLimit(_ asked: [FeatureEffect]) -> CommandError? {
        for effect in asked {
            switch effect {
            case .probeStation:
                guard !machine.features.probes.isFull else {
                    return CommandError(.limitExceeded, "at most \(StationProbes.limit) station tests at once")
                }
                guard !machine.features.probes.isRateLimited(now: now) else {
                    return CommandError(.rateLimited, "at most \(StationProbes.perMinute) station tests a minute")
                }
            case .tellDirectory, .checkReadiness: continue
            }
        }
        return nil
    }

    /// Starts the effects, after the command's publications and response (if it is answered now);
    /// `reply` answers it later (`FeatureEffect.answersLater`).
    mutating func carryOut(_ asked: [FeatureEffect], reply: DeferredReply) {
        for effect in asked {
            switch effect {
            case .probeStation(let url):
                // Answered when the probe comes back (`stationProbed`).
                let id = machine.features.probes.wait(reply, now: now)
                effects.append(.probeStation(StationProbeRequest(id: id, url: url)))
                log(.info, "station test", ["url": String(url.prefix(120))])
            case .tellDirectory(let id):
                effects.append(.tellDirectory(id))
            case .checkReadiness:
                // The plan's `checkReadinessIfDue` sends the probe; `readiness` answers.
                machine.features.checks.wait(reply)
            }
        }
    }
}
