/// Moving the alarms forward in time: snooze ends, ring timeouts, pre-alarms, fires and misses.
extension AlarmsFeature {
    /// No occurrence is ever further ahead than this (a weekly alarm, plus a DST hour). A plan
    /// beyond it was made on a clock that has since been set back by days, and is re-made.
    static let longestGap: Int64 = 8 * 86_400

    /// Handles everything due at `context.now`. Calling it again at the same instant does nothing.
    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {
        let now = context.now
        let zone = context.zone
        advanceRing(now: now, zone: zone, outbox: &outbox)

        // A pause ends at the start of its day.
        if let end = pauseEnd(zone: zone), end <= now { pausedUntil = nil }

        var fires: [(alarm: Alarm, scheduled: Instant)] = []
        for original in book.alarms where original.enabled {
            var alarm = Self.droppingPastSkipDates(original, now: now, zone: zone)
            var plan = plans[alarm.id] ?? Plan(pending: AlarmSchedule.occurrence(of: alarm, after: now, zone: zone))
            if let pending = plan.pending, alarm.date == nil, pending.milliseconds - now.milliseconds > Self.longestGap * 1000 {
                plan = Plan(pending: AlarmSchedule.occurrence(of: alarm, after: now, zone: zone))
            }
            // Occurrences on a skipped day or inside the pause pass without a sound; so does the
            // first one left after them when skip_next is set (the flag clears itself). Bounded:
            // each step moves past one occurrence already due, and a weekly alarm has ~52 a year.
            while let pending = plan.pending, pending <= now {
                if isSilenced(pending, of: alarm, zone: zone) {
                    plan = Plan(pending: AlarmSchedule.occurrence(of: alarm, after: pending, zone: zone))
                } else if alarm.skipNext {
                    alarm.skipNext = false
                    plan = Plan(pending: AlarmSchedule.occurrence(of: alarm, after: pending, zone: zone))
                } else {
                    break
                }
            }
            if let pending = plan.pending, pending <= now {
                var latest = latestOccurrence(of: alarm, from: pending, notAfter: now, zone: zone)
                // After a long outage the latest may be a silenced day: the one before still counts.
                if isSilenced(latest, of: alarm, zone: zone) { latest = pending }
                if now.milliseconds - latest.milliseconds < Int64(alarm.ringMinutes) * 60_000 {
                    fires.append((alarm, latest))
                } else {
                    let body = AlarmEvent.missed.payload(alarm: alarm, scheduled: latest, at: now, snoozeCount: 0, test: false, zone: zone)
                    outbox.append(contentsOf: AlarmEvent.missed.publications(body))
                }
                if alarm.isOneTime {
                    alarm.enabled = false
                    plan = Plan(pending: nil)
                } else {
                    plan = Plan(pending: AlarmSchedule.occurrence(of: alarm, after: now, zone: zone))
                }
            } else if let pending = plan.pending, alarm.preAlarmMinutes > 0, !plan.preAlarmSent, rings(pending, of: alarm, zone: zone),
                      pending.adding(seconds: -Int64(alarm.preAlarmMinutes) * 60) <= now {
                plan.preAlarmSent = true
                let body = AlarmEvent.preAlarm.payload(alarm: alarm, scheduled: pending, at: now, snoozeCount: 0, test: false, zone: zone)
                outbox.append(contentsOf: AlarmEvent.preAlarm.publications(body))
            }
            if alarm != original { book.replace(alarm) }
            if alarm.enabled { plans[alarm.id] = plan } else { plans[alarm.id] = nil }
        }
        guard !fires.isEmpty else { return }
        // One ring for everything that fired together, named after the earliest; all reported.
        let ordered = fires.enumerated().sorted { ($0.element.scheduled, $0.offset) < ($1.element.scheduled, $1.offset) }.map(\.element)
        ring = RingSession(alarm: ordered[0].alarm, others: ordered.dropFirst().map(\.alarm),
                           scheduled: ordered[0].scheduled, since: now, test: false)
        for fire in ordered {
            let body = AlarmEvent.fired.payload(alarm: fire.alarm, scheduled: fire.scheduled, at: now, snoozeCount: 0, test: false, zone: zone)
            outbox.append(contentsOf: AlarmEvent.fired.publications(body))
        }
    }

    /// The system clock was set: the plans stay valid (they are instants), so this is an
    /// advance at the new time — due alarms fire or are reported missed once; none re-fires.
    public mutating func clockChanged(context: FeatureContext, outbox: inout [Publication]) {
        advance(context: context, outbox: &outbox)
    }

    /// Snooze ends and ring timeouts.
    private mutating func advanceRing(now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard var session = ring else { return }
        if session.phase == .snoozed, let until = session.snoozeUntil, until <= now {
            session.phase = .ringing
            session.since = until
            session.snoozeUntil = nil
            session.audibility = RingAudibility.start(session)
            if now < session.timeout {
                emit(.fired, session, at: now, zone: zone, to: &outbox)
            }
        }
        if session.phase == .ringing, session.timeout <= now {
            emit(.timedOut, session, at: now, zone: zone, to: &outbox)
            ring = nil
            return
        }
        ring = session
    }

    /// The last occurrence in `first...limit` (a long outage is handled as one occurrence).
    private func latestOccurrence(of alarm: Alarm, from first: Instant, notAfter limit: Instant, zone: ZoneRules) -> Instant {
        var latest = first
        // Jump close to `limit` first so a years-long gap costs a few steps, not thousands.
        if limit.milliseconds - latest.milliseconds > Self.longestGap * 1000,
           let near = AlarmSchedule.occurrence(of: alarm, after: limit.adding(seconds: -Self.longestGap), zone: zone), near <= limit {
            latest = near
        }
        while let next = AlarmSchedule.occurrence(of: alarm, after: latest, zone: zone), next <= limit { latest = next }
        return latest
    }
}
