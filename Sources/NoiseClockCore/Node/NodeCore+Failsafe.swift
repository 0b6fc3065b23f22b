extension NodeCore {
    /// The audio engine reported on a ringing alarm's sound (`sounding`, or `failed` when even
    /// the fallback cannot be made).
    public mutating func alarmSoundReported(_ report: AlarmSoundReport, now: Instant, outbox: inout [Publication]) {
        alarms.soundReported(report, now: now, zone: settings.zone, safeMode: settings.safeMode != nil, outbox: &outbox)
        checkAlarmAudibility(now: now, outbox: &outbox)
    }

    /// When an unconfirmed ring is to be reported `failed` (the failsafe's watchdog).
    var alarmSoundDeadline: Instant? {
        guard let ring = alarms.ring, ring.phase == .ringing, ring.audibility == .awaiting else { return nil }
        let timeout = settings.stream.timeoutSeconds
        let deadline = ring.soundDeadline(streamTimeoutSeconds: timeout)
        return ring.streamDeadline(timeoutSeconds: timeout).map { min($0, deadline) } ?? deadline
    }

    /// A ring that fires while the device is unavailable fails at once; one the engine has not
    /// confirmed within 2 s fails then.
    mutating func checkAlarmAudibility(now: Instant, outbox: inout [Publication]) {
        let deviceError = audioStatus.flatMap { $0.state == .unavailable ? ($0.error ?? "unavailable") : nil }
        alarms.checkStreamDeadline(timeoutSeconds: settings.stream.timeoutSeconds, now: now)
        alarms.checkAudibility(deviceError: deviceError, streamTimeoutSeconds: settings.stream.timeoutSeconds, now: now,
                               zone: settings.zone, outbox: &outbox)
    }
}
