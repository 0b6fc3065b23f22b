extension NodeCore {
    /// The audio engine reported on a ringing alarm's sound (`sounding`, or `failed` when even
    /// the fallback cannot be made).
    public mutating func alarmSoundReported(_ report: AlarmSoundReport, now: Instant, outbox: inout [Publication]) {
        alarms.soundReported(report, now: now, zone: settings.zone, safeMode: settings.safeMode != nil, outbox: &outbox)
        anUnheardRingFailsOver(now: now, outbox: &outbox)
    }

    /// When an unconfirmed ring is to be reported `failed` (the failsafe's watchdog).
    var alarmSoundDeadline: Instant? {
        guard let ring = alarms.ring, ring.phase == .ringing, ring.audibility == .awaiting else { return nil }
        let timeout = settings.stream.timeoutSeconds
        let deadline = ring.soundDeadline(streamTimeoutSeconds: timeout)
        return ring.streamDeadline(timeoutSeconds: timeout).map { min($0, deadline) } ?? deadline
    }
}
