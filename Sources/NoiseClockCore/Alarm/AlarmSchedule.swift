/// When alarms ring, as pure functions of the alarm, an instant and the zone. Occurrences are
/// wall-clock readings resolved by the contract's clock rules: a time skipped by a DST change
/// rings at the first instant after the gap; a repeated time rings once, at its first occurrence.
public enum AlarmSchedule {
    /// The first occurrence strictly after `instant`, ignoring `enabled` and `skip_next`:
    /// daily for a one-time alarm without a date, on its date for a dated one (nil when past),
    /// on its weekdays for a repeating one.
    public static func occurrence(of alarm: Alarm, after instant: Instant, zone: ZoneRules) -> Instant? {
        if let date = alarm.date, alarm.repeatDays.isOnce {
            let at = ringInstant(alarm.time, on: date, zone: zone)
            return at > instant ? at : nil
        }
        // Start a day early: a reading on the previous local date may still lie ahead when the
        // zone's offset changes, and an occurrence is never more than 8 days away.
        let start = zone.local(at: instant).date.adding(days: -1)
        for offset in 0...9 {
            let day = start.adding(days: offset)
            guard alarm.repeatDays.isOnce || alarm.repeatDays.days.contains(day.weekday) else { continue }
            let at = ringInstant(alarm.time, on: day, zone: zone)
            if at > instant { return at }
        }
        return nil
    }

    /// When the alarm next rings after `instant`: nil when disabled; one occurrence later when
    /// `skip_next` is set.
    public static func nextTrigger(for alarm: Alarm, after instant: Instant, zone: ZoneRules) -> Instant? {
        guard alarm.enabled, let first = occurrence(of: alarm, after: instant, zone: zone) else { return nil }
        return alarm.skipNext ? occurrence(of: alarm, after: first, zone: zone) : first
    }

    /// The instant `time` on `date` rings in `zone`.
    public static func ringInstant(_ time: AlarmTime, on date: CivilDate, zone: ZoneRules) -> Instant {
        zone.resolve(LocalDateTime(date: date, hour: time.hour, minute: time.minute)).alarmInstant
    }
}
