/// The sunrise follows its alarm: it starts `light_minutes` before the ring, steps on its grid,
/// stops (fading off in 5 s) when the ring it leads to no longer comes — skipped, paused, a
/// skipped day, disabled, deleted, moved — and stays at full once the alarm rings (snooze,
/// dismiss and time-out leave the light on).
extension LightFeature {
    /// `candidate`: the sunrise the alarms ask for now (its window contains `now`), if any.
    mutating func follow(_ candidate: Sunrise?, now: Instant) {
        if let current = sunrise, current.key != candidate?.key {
            sunrise = nil
            if now >= current.ring {
                // The alarm rang: full light, unless a glide already ends there.
                if !current.reachedFull {
                    show(current.level(at: current.ring), source: .sunrise, transition: 0)
                }
            } else if source == .sunrise, candidate == nil {
                // (Another alarm's sunrise taking over sends its own level at once instead.)
                show(.off, source: nil, transition: Self.cancelFadeSeconds)
            }
        }
        // A finished sunrise's full light is not dimmed to start the next alarm's (two alarms
        // minutes apart): that one begins only once the light is off or a person's.
        if sunrise == nil, let candidate, candidate.key != overridden, !(source == .sunrise && level.on) {
            sunrise = candidate
        }
        guard var running = sunrise else { return }
        if let (next, transition) = running.step(now: now) { show(next, source: .sunrise, transition: transition) }
        sunrise = running
    }

    /// A person set the light: the sunrise under way ends and does not come back for that ring.
    mutating func override() {
        guard let running = sunrise else { return }
        overridden = running.key
        sunrise = nil
    }

    /// When the sunrise needs its next step.
    var sunriseDeadline: Instant? { sunrise.map { $0.reachedFull ? $0.ring : $0.nextSend } }
}
