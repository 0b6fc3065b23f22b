/// A ring on a station (v1.3, Radio): the station has `stream.timeout_seconds` from the ring to
/// be heard at the speaker; after that, or as soon as the player gives up on it, or when it
/// stalls or turns silent while ringing, the ring sounds the fallback tone until snooze or
/// dismiss. The failsafe then waits for the tone's own confirmation.
extension RingSession {
    /// The ringing sound when it is a station (`radio:<id>`).
    public var stationSound: String? {
        guard let sound = soundingAlarm?.sound, Station.stationID(ofSound: sound) != nil else { return nil }
        return sound
    }

    /// The fallback of this very ring: one from before a snooze does not count, so the station
    /// is tried again when the snooze ends.
    public var activeStreamFallback: StreamFallback? {
        guard let streamFallback, streamFallback.ringSince == since, stationSound != nil else { return nil }
        return streamFallback
    }

    /// When the station must have been heard, while it is still awaited.
    public func streamDeadline(timeoutSeconds: Int) -> Instant? {
        guard phase == .ringing, audibility == .awaiting, stationSound != nil, activeStreamFallback == nil else { return nil }
        return since.adding(seconds: Int64(timeoutSeconds))
    }

    /// By when the engine must confirm the ring's sound, or the ring is `failed`: a station's ring
    /// first has its timeout (then the tone), the tone the usual 2 s from when it replaced it.
    public func soundDeadline(streamTimeoutSeconds: Int) -> Instant {
        guard stationSound != nil else { return soundDeadline }
        let from = activeStreamFallback?.at ?? since.adding(seconds: Int64(streamTimeoutSeconds))
        return from.adding(milliseconds: RingAudibility.confirmWithinMilliseconds)
    }

    /// What `sounding` adds for a station's ring: nothing for a plain sound.
    func streamFields(engineFallback: Bool) -> [(String, JSONValue)] {
        guard stationSound != nil else { return [("fallback", .bool(engineFallback))] }
        guard let fallback = activeStreamFallback else { return [("fallback", .bool(false))] }
        return [("fallback", .bool(true)), ("reason", .string("stream_unavailable")), ("cause", .string(fallback.cause))]
    }
}

extension AlarmsFeature {
    /// The ringing alarm's station cannot be heard: the ring turns to the fallback tone now, and
    /// the failsafe awaits the tone's confirmation. Once per ring (the first cause is kept).
    mutating func streamFailed(cause: String, now: Instant) {
        guard var session = ring, session.phase == .ringing, session.stationSound != nil, session.activeStreamFallback == nil else { return }
        session.streamFallback = StreamFallback(cause: StreamFallback.normalised(cause), at: now, ringSince: session.since)
        if session.audibility == .sounding { session.audibility = .awaiting }
        ring = session
    }

    /// No audible sample of the station by its deadline: `timeout`.
    mutating func checkStreamDeadline(timeoutSeconds: Int, now: Instant) {
        guard let deadline = ring?.streamDeadline(timeoutSeconds: timeoutSeconds), now >= deadline else { return }
        streamFailed(cause: "timeout", now: now)
    }
}
