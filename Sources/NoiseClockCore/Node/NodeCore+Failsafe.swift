extension NodeCore {
    /// The audio engine reported on a ringing alarm's sound (`sounding`, or `failed` when even
    /// the fallback cannot be made).
    public mutating func alarmSoundReported(_ report: AlarmSoundReport, now: Instant, outbox: inout [Publication]) {
        alarms.soundReported(report, now: now, zone: settings.zone, outbox: &outbox)
        checkAlarmAudibility(now: now, outbox: &outbox)
    }

    /// When an unconfirmed ring is to be reported `failed` (the failsafe's watchdog).
    var alarmSoundDeadline: Instant? {
        guard let ring = alarms.ring, ring.phase == .ringing, ring.audibility == .awaiting else { return nil }
        return ring.soundDeadline
    }

    /// A ring that fires while the device is unavailable fails at once; one the engine has not
    /// confirmed within 2 s fails then.
    mutating func checkAlarmAudibility(now: Instant, outbox: inout [Publication]) {
        let deviceError = audioStatus.flatMap { $0.state == .unavailable ? ($0.error ?? "unavailable") : nil }
        alarms.checkAudibility(deviceError: deviceError, now: now, zone: settings.zone, outbox: &outbox)
    }
}
