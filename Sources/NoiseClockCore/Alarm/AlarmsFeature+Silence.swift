/// Occurrences that pass without a sound: a day in the alarm's `skip_dates`, anything before the
/// end of a pause (`alarms/pause`), and `skip_next` (which takes the first occurrence that would
/// otherwise ring, so skipping "tomorrow" on the eve of a skipped day skips the day after).
extension AlarmsFeature {
    /// The first instant of the pause's last day: nothing rings before it.
    func pauseEnd(zone: ZoneRules) -> Instant? {
        pausedUntil.map { AlarmSchedule.startOfDay($0, zone: zone) }
    }

    /// Whether `occurrence` falls on a skipped day or inside the pause (`skip_next` aside).
    func isSilenced(_ occurrence: Instant, of alarm: Alarm, zone: ZoneRules) -> Bool {
        if let end = pauseEnd(zone: zone), occurrence < end { return true }
        return !alarm.skipDates.isEmpty && alarm.skipDates.contains(zone.local(at: occurrence).date)
    }

    /// The first occurrence from `pending` on (inclusive) that really rings, or nil.
    func ringingOccurrence(of alarm: Alarm, from pending: Instant, zone: ZoneRules) -> Instant? {
        var candidate: Instant? = pending
        var skipNext = alarm.skipNext
        // At most 50 skipped days, one skip_next and one jump over the pause stand in the way.
        for _ in 0..<(Alarm.maxSkipDates + 8) {
            guard let at = candidate else { return nil }
            if let end = pauseEnd(zone: zone), at < end {
                candidate = AlarmSchedule.occurrence(of: alarm, after: end.adding(milliseconds: -1), zone: zone)
            } else if isSilenced(at, of: alarm, zone: zone) {
                candidate = AlarmSchedule.occurrence(of: alarm, after: at, zone: zone)
            } else if skipNext {
                skipNext = false
                candidate = AlarmSchedule.occurrence(of: alarm, after: at, zone: zone)
            } else {
                return at
            }
        }
        return nil
    }

    /// `alarm` without skip dates before today (in the node's zone).
    static func droppingPastSkipDates(_ alarm: Alarm, now: Instant, zone: ZoneRules) -> Alarm {
        guard let first = alarm.skipDates.first else { return alarm }
        let today = zone.local(at: now).date
        guard first < today else { return alarm }
        var copy = alarm
        copy.skipDates.removeAll { $0 < today }
        return copy
    }
}

extension AlarmSchedule {
    /// The first instant of `date` in `zone` (after the gap, where midnight is skipped).
    public static func startOfDay(_ date: CivilDate, zone: ZoneRules) -> Instant {
        zone.resolve(LocalDateTime(date: date, hour: 0, minute: 0)).alarmInstant
    }
}
