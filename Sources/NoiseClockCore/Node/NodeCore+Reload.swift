extension NodeCore {
    /// Every feature kept in a state file made again from `documents`, as at start (a restore).
    /// What no file holds stays: the settings, the catalog, the lamp's and shaker's state, the
    /// battery and the sound device's status. The next `advance` plans the alarms anew.
    mutating func reload(documents: [String: JSONValue], now: Instant) {
        let fresh = NodeCore(settings: settings, catalog: catalog, documents: documents, now: now)
        alarms = fresh.alarms
        style = fresh.style
        noise = fresh.noise
        routines = fresh.routines
        timers = fresh.timers
        mixes = fresh.mixes
        stations = fresh.stations
    }
}

extension NodeCore {
    /// The time zone or the language changed (the web app's settings, applied at once): every
    /// plan made in the old zone is made again, as after a step of the system clock, and `~/time`
    /// goes out now in the new zone rather than at the next boundary.
    mutating func timeSettingsChanged(zone: ZoneRules, locale: NodeLocale, now: Instant, outbox: inout [Publication]) {
        if zone != settings.zone {
            // Plans are instants of the old zone's 06:30: made again from now (a missing plan is
            // made on the next advance, as after a restore). A ring in progress is left alone.
            alarms.plans = [:]
            routines.plans = [:]
        }
        settings.zone = zone
        settings.locale = locale
        clockChanged(now: now, outbox: &outbox)
        outbox.append(Publication(topic: "time", body: .json(timePayload(at: now)), retain: false, qos: 0))
    }
}
