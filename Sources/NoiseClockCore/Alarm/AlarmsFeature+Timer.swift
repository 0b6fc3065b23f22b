/// Finished timers ring through the alarms' ring cycle: `~/alarm` shows them (`source: "timer"`),
/// snooze and dismiss work on them, and they time out after a minute.
extension AlarmsFeature {
    /// Rings `timer` now, unless something already rings or is snoozed: a nap chime does not cut
    /// into an alarm (its `finished` event has gone out all the same).
    mutating func ringTimer(_ timer: CountdownTimer, now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard ring == nil else { return }
        var session = RingSession(alarm: timer.ringAlarm, scheduled: timer.endsAt, since: now, test: false)
        session.source = .timer
        ring = session
        emit(.fired, session, at: now, zone: zone, to: &outbox)
    }
}
