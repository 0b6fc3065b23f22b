/// When routines start and end, as pure functions, by the alarms' clock rules: a start (or end)
/// skipped by a DST change happens at the first instant after the gap; a repeated wall time
/// happens once, at its first occurrence.
public enum RoutineSchedule {
    /// The first start strictly after `instant` (every day for a routine that runs once).
    public static func nextStart(of routine: Routine, after instant: Instant, zone: ZoneRules) -> Instant? {
        AlarmSchedule.occurrence(of: shape(routine.start, routine.repeatDays), after: instant, zone: zone)
    }

    /// When a routine that started at `start` ends: the next `end` wall time after it (an end at
    /// or before the start time is the next day's), or `start` plus its duration.
    public static func end(of routine: Routine, startedAt start: Instant, zone: ZoneRules) -> Instant {
        switch routine.ending {
        case .after(let minutes):
            return start.adding(seconds: Int64(minutes) * 60)
        case .at(let time):
            return AlarmSchedule.occurrence(of: shape(time, .daily), after: start, zone: zone) ?? start.adding(seconds: 86_400)
        }
    }

    /// The latest start in `first...limit` (a long outage counts as one start).
    static func latestStart(of routine: Routine, from first: Instant, notAfter limit: Instant, zone: ZoneRules) -> Instant {
        var latest = first
        if limit.milliseconds - latest.milliseconds > AlarmsFeature.longestGap * 1000,
           let near = nextStart(of: routine, after: limit.adding(seconds: -AlarmsFeature.longestGap), zone: zone), near <= limit {
            latest = near
        }
        while let next = nextStart(of: routine, after: latest, zone: zone), next <= limit { latest = next }
        return latest
    }

    /// An alarm with only a time and days: the alarms' schedule is the one set of DST rules.
    private static func shape(_ time: AlarmTime, _ days: AlarmRepeat) -> Alarm {
        var alarm = Alarm(id: "routine", time: time, sound: "none")
        alarm.repeatDays = days
        return alarm
    }
}
