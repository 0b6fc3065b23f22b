/// The failsafe: a ring is followed by `sounding` once the audio engine confirms audible samples
/// reached the device, or by `failed` when it cannot be heard (see `RingAudibility`).
extension AlarmsFeature {
    /// The audio engine's word on the ringing alarm's sound; a report for another ring (one that
    /// was snoozed, dismissed or replaced meanwhile) is ignored. In safe mode every `sounding` says
    /// so (`"fallback": true, "reason": "safe_mode"`): the ring is on a built-in sound or the tone.
    mutating func soundReported(_ report: AlarmSoundReport, now: Instant, zone: ZoneRules, safeMode: Bool = false, outbox: inout [Publication]) {
        guard var session = ring, session.phase == .ringing, session.soundKey == report.key else { return }
        switch report.outcome {
        case .audible(let fallback):
            guard session.audibility != .sounding, session.audibility != .silent else { return }
            session.audibility = .sounding
            // The engine could not even make the station's voice: its tone already sounds.
            if fallback, session.stationSound != nil, session.activeStreamFallback == nil {
                session.streamFallback = StreamFallback(cause: "no_audio", at: now, ringSince: session.since)
            }
            let fields = safeMode ? [("fallback", JSONValue.bool(true)), ("reason", .string("safe_mode"))]
                : session.streamFields(engineFallback: fallback)
            emitFailsafe(.sounding, session, at: now, zone: zone, extra: fields, to: &outbox)
        case .streamFailed(let cause):
            streamFailed(cause: cause, now: now)
            return
        case .unplayable(let error):
            guard session.audibility == .awaiting || session.audibility == .sounding else { return }
            session.audibility = .failed
            emitFailsafe(.failed, session, at: now, zone: zone,
                         extra: [("reason", .string("sound_unplayable")), ("error", .string(error))], to: &outbox)
        }
        ring = session
    }

    /// Fails the ringing alarm when it cannot be heard: the device is unavailable (`deviceError`),
    /// or the engine has not confirmed its sound by `soundDeadline`. Once per failure: the ring
    /// stays `failed` until the engine reports it audible again.
    mutating func checkAudibility(deviceError: String?, streamTimeoutSeconds: Int, now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard var session = ring, session.phase == .ringing else { return }
        let error: String
        switch (session.audibility, deviceError) {
        case (.awaiting, let device?), (.sounding, let device?):
            error = "audio device unavailable: \(device)"
        case (.awaiting, nil) where now >= session.soundDeadline(streamTimeoutSeconds: streamTimeoutSeconds):
            error = "no audible samples reached the audio device within \(RingAudibility.confirmWithinMilliseconds / 1000) s"
        default:
            return
        }
        session.audibility = .failed
        emitFailsafe(.failed, session, at: now, zone: zone,
                     extra: [("reason", .string("audio_unavailable")), ("error", .string(error))], to: &outbox)
        ring = session
    }

    private func emitFailsafe(
        _ event: AlarmEvent, _ session: RingSession, at: Instant, zone: ZoneRules,
        extra: [(String, JSONValue)], to out: inout [Publication]
    ) {
        // An alarm whose sound is `none` was never to be heard: it gets neither event.
        for alarm in session.allAlarms where alarm.sound != "none" {
            guard case .object(var object) = event.payload(alarm: alarm, scheduled: session.scheduled, at: at,
                                                           snoozeCount: session.snoozeCount, test: session.test, zone: zone,
                                                           source: session.source)
            else { continue }
            for (key, value) in extra { object[key] = value }
            out.append(contentsOf: event.publications(.object(object)))
        }
    }
}
