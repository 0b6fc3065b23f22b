extension NodeCore {
    /// How the clock is shown; the style decides (defaults until a style says otherwise).
    public var timeDisplay: (use24Hour: Bool, showSeconds: Bool, showAmPm: Bool) {
        (style.use24Hour, style.showSeconds, style.showAMPM)
    }

    /// `~/time` goes out every minute, or every second while the style shows seconds.
    var timePeriodSeconds: Int64 { timeDisplay.showSeconds ? 1 : 60 }

    /// Publishes `~/time` for the boundary just passed. The payload carries the boundary itself,
    /// not the moment the node woke, so messages never drift. A cursor left far ahead by a
    /// backward clock jump, or a period change, is pulled back to the next boundary.
    mutating func advanceTime(to now: Instant, outbox: inout [Publication]) {
        let period = timePeriodSeconds
        let next = now.nextBoundary(every: period)
        // A cursor left by another period (seconds were just turned off) or pushed far ahead by a
        // backward clock jump is replaced by the next boundary of the current period.
        guard let cursor = timeCursor, cursor <= next, cursor.milliseconds % (period * 1000) == 0 else {
            timeCursor = next
            return
        }
        guard now >= cursor else { return }
        let boundary = Instant(seconds: now.seconds - ((now.seconds % period) + period) % period)
        outbox.append(Publication(topic: "time", body: .json(timePayload(at: boundary)), retain: false, qos: 0))
        timeCursor = next
    }

    public func timePayload(at instant: Instant) -> JSONValue {
        let display = timeDisplay
        let payload = TimePayload.make(
            now: instant, zone: settings.zone, locale: settings.locale,
            use24Hour: display.use24Hour, showSeconds: display.showSeconds, showAmPm: display.showAmPm
        )
        // v1.1: whether the clock can be trusted (a Pi without an RTC before NTP syncs cannot).
        guard case .object(var object) = payload else { return payload }
        object["synced"] = clockSynced.map(JSONValue.bool) ?? .null
        return .object(object)
    }
}
