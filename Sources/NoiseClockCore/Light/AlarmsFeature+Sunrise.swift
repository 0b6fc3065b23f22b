/// Which alarm's sunrise is due: the alarms know when they really ring (past skips, the pause,
/// skipped days, disabled ones), so a sunrise follows every change of them.
extension AlarmsFeature {
    /// The sunrise whose window holds `now`: the earliest ring with `light_minutes` ahead.
    public func sunrise(now: Instant, zone: ZoneRules) -> Sunrise? {
        var best: Sunrise?
        for alarm in book.alarms where alarm.enabled && alarm.lightMinutes > 0 {
            guard let ring = nextTrigger(of: alarm, zone: zone), now < ring else { continue }
            let start = ring.adding(seconds: -Int64(alarm.lightMinutes) * 60)
            guard start <= now, best.map({ ring < $0.ring }) ?? true else { continue }
            best = Sunrise(alarmID: alarm.id, start: start, ring: ring)
        }
        return best
    }

    /// The next instant a sunrise starts, after `now`.
    public func nextSunriseStart(after now: Instant, zone: ZoneRules) -> Instant? {
        var earliest: Instant?
        for alarm in book.alarms where alarm.enabled && alarm.lightMinutes > 0 {
            guard let ring = nextTrigger(of: alarm, zone: zone) else { continue }
            let start = ring.adding(seconds: -Int64(alarm.lightMinutes) * 60)
            if start > now, earliest.map({ start < $0 }) ?? true { earliest = start }
        }
        return earliest
    }
}
