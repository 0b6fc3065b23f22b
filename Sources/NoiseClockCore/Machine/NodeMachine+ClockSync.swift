extension NodeMachine.Draft {
    /// The clock's synchronisation changed: the next `~/time` carries it (nothing else changes).
    mutating func clockSync(_ synced: Bool?) {
        guard synced != core.clockSynced else { return }
        log(.notice, "clock synchronisation", ["synced": synced.map { "\($0)" } ?? "unknown"])
        var next = core
        next.clockSynced = synced
        commit(next, outbox: [])
    }
}
