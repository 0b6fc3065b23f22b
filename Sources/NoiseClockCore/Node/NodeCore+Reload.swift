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
    }
}
