/// Moving routines forward in time: ends, starts, and resuming after a restart.
extension RoutinesFeature {
    /// Handles everything due at `context.now`. Calling it again at the same instant does nothing.
    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {
        let now = context.now, zone = context.zone
        let resuming = justRestored
        justRestored = false
        if var running = active {
            if now >= running.endsAt {
                outbox.append(RoutineEvent.ended.publication(running.routine, at: now, zone: zone))
                active = nil
            } else if resuming {
                // Back after a restart or power cut inside the window: fade in again from now.
                running.startedAt = now
                running.fadeOutFrom = max(now, running.fadeOutFrom)
                active = running
                outbox.append(RoutineEvent.resumed.publication(running.routine, at: now, zone: zone))
            }
        }
        var due: (routine: Routine, start: Instant, end: Instant)?
        for index in routines.indices where routines[index].enabled {
            let routine = routines[index]
            guard let pending = plans[routine.id] ?? RoutineSchedule.nextStart(of: routine, after: now, zone: zone) else {
                plans[routine.id] = nil
                continue
            }
            guard pending <= now else {
                plans[routine.id] = pending
                continue
            }
            let latest = RoutineSchedule.latestStart(of: routine, from: pending, notAfter: now, zone: zone)
            let end = RoutineSchedule.end(of: routine, startedAt: latest, zone: zone)
            // A window that closed while nobody was watching passes without a sound.
            if end > now, due == nil || latest > due!.start { due = (routine, latest, end) }
            if routine.repeatDays.isOnce {
                routines[index].enabled = false
                plans[routine.id] = nil
            } else {
                plans[routine.id] = RoutineSchedule.nextStart(of: routine, after: latest, zone: zone)
            }
        }
        if let due {
            begin(due.routine, at: now, endsAt: due.end, event: resuming ? .resumed : .started, zone: zone, outbox: &outbox)
        }
    }

    /// Makes `routine` the active one; one already running ends with `overridden`.
    mutating func begin(_ routine: Routine, at now: Instant, endsAt: Instant, event: RoutineEvent, zone: ZoneRules, outbox: inout [Publication]) {
        if let running = active {
            outbox.append(RoutineEvent.overridden.publication(running.routine, at: now, zone: zone))
        }
        active = ActiveRoutine(routine: routine, startedAt: now, endsAt: endsAt)
        outbox.append(event.publication(routine, at: now, zone: zone))
    }

    /// A manual noise command took over: the routine ends at once, without a fade of its own.
    mutating func override(at now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard let running = active else { return }
        active = nil
        outbox.append(RoutineEvent.overridden.publication(running.routine, at: now, zone: zone))
    }

    /// Ends the active routine over its fade-out from now (`routine/stop`, or its routine was
    /// disabled or deleted). A routine already fading out keeps its earlier end.
    mutating func windDown(at now: Instant) {
        guard var running = active else { return }
        let end = now.adding(seconds: Int64(running.routine.fadeOutSeconds))
        guard end < running.endsAt else { return }
        running.endsAt = end
        running.fadeOutFrom = now
        active = running
    }

    /// The system clock was set: plans are instants and stay valid; this is an advance at the new time.
    public mutating func clockChanged(context: FeatureContext, outbox: inout [Publication]) {
        // A plan left days ahead by a clock set back is made again from now.
        for routine in routines where routine.enabled {
            if let pending = plans[routine.id], pending.milliseconds - context.now.milliseconds > AlarmsFeature.longestGap * 1000 {
                replan(routine, now: context.now, zone: context.zone)
            }
        }
        advance(context: context, outbox: &outbox)
    }
}
