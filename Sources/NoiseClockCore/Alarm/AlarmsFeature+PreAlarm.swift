/// The wake curve's first part: an alarm's `pre_alarm_sound` rising over its pre-alarm minutes.
extension AlarmsFeature {
    /// What plays before the next ringing occurrence, if one is inside its pre-alarm window (the
    /// `pre_alarm` event went out and the occurrence really rings). The earliest one wins.
    public func preAlarmScene(now: Instant, zone: ZoneRules) -> AudioScene.PreAlarm? {
        var best: AudioScene.PreAlarm?
        for alarm in book.alarms where alarm.enabled && alarm.preAlarmSound != "none" && alarm.preAlarmMinutes > 0 {
            guard let plan = plans[alarm.id], plan.preAlarmSent, let pending = plan.pending, now < pending,
                  rings(pending, of: alarm, zone: zone)
            else { continue }
            let scene = AudioScene.PreAlarm(sound: alarm.preAlarmSound, volume: alarm.volume,
                                            start: pending.adding(seconds: -Int64(alarm.preAlarmMinutes) * 60), end: pending)
            if best == nil || scene.end < best!.end { best = scene }
        }
        return best
    }
}
