/// What a feature's command asked of the world (`FeatureEffect`), carried out: the feature
/// decided it; the machine checks what it draws on (a limit, the speaker, the button board),
/// keeps the reply of a command answered later (with its `request_id`), and hands the adapter its
/// `NodeEffect`. The machine decides no command's words and parses no payload here.
extension NodeMachine.Draft {
    /// Why the effects cannot be carried out now (a limit, speech off, nothing to learn from), or
    /// nil. Checked before anything of the command is kept, so a refused command changes nothing.
    func unavailable(_ asked: [FeatureEffect], origin: CommandOrigin) -> CommandError? {
        for effect in asked {
            switch effect {
            case .probeStation:
                guard !machine.features.probes.isFull else {
                    return CommandError(.limitExceeded, "at most \(StationProbes.limit) station tests at once")
                }
                guard !machine.features.probes.isRateLimited(now: now) else {
                    return CommandError(.rateLimited, "at most \(StationProbes.perMinute) station tests a minute")
                }
            case .speak:
                if let refusal = machine.features.speaker.refusal(audio: core.audioStatus) { return refusal }
            case .learnButtons(_, let device):
                let overMQTT = if case .mqtt = origin { true } else { false }
                if let refusal = machine.features.buttons.learnRefusal(device: device, overMQTT: overMQTT) { return refusal }
            case .testDevice:
                guard !machine.features.deviceProbes.isFull else {
                    return CommandError(.limitExceeded, "at most \(DeviceProbes.limit) device tests at once")
                }
            case .tellDirectory, .checkReadiness, .exitSafeMode: continue
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
            case .speak(let text, let volume):
                // Answered `{"text", "seconds"}` once spoken (`spoken`).
                effects.append(.speak(machine.features.speaker.utter(text, volume: volume, answering: reply)))
                log(.info, "speak", ["command": reply.command, "text": String(text.prefix(80))])
            case .learnButtons(let seconds, let device):
                effects.append(.learnButtons(seconds: seconds, device: device))
            case .testDevice(let kind, let endpoint):
                // Answered by the device's report (`answerDeviceTests`) or its silence (`expireDeviceTests`).
                machine.features.deviceProbes.wait(reply, kind: kind, endpoint: endpoint, now: now)
                let query = endpoint.stateQuery
                effects.append(.publish(OutboundMessage(topic: query.topic, payload: Array(query.payload.utf8), qos: 1, retain: false)))
                log(.info, "device test", ["kind": kind, "topic": query.topic])
            case .exitSafeMode:
                log(.notice, "leaving safe mode: the crash count is cleared and the node starts again", [:])
                effects.append(.exitSafeMode)
            }
        }
    }
}
