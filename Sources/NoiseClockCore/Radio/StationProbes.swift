/// `station/test` commands waiting for their probe (`NodeEffect.probeStation`), by probe id: a
/// machine feature, as speech and buttons are, so the answer echoes the command's `request_id`.
struct StationProbes: Sendable {
    /// At most this many probes at once (each holds a thread up to 8 s).
    static let limit = 4
    /// At most this many probes started in any minute, whoever asks: a broker client probed 401
    /// loopback ports in 3.8 s, `station/test` told closed, open and silent ports apart.
    static let perMinute = 10

    private var waiting: [UInt64: DeferredReply] = [:]
    private var nextID: UInt64 = 1
    /// When the probes of the last minute started (at most `perMinute`).
    private var started: [Instant] = []

    var isFull: Bool { waiting.count >= Self.limit }

    /// Whether `perMinute` probes started within the minute before `now`.
    func isRateLimited(now: Instant) -> Bool {
        started.filter { now.milliseconds - $0.milliseconds < 60_000 }.count >= Self.perMinute
    }

    /// Keeps `reply` until the probe with the returned id comes back; the probe counts at `now`.
    mutating func wait(_ reply: DeferredReply, now: Instant) -> UInt64 {
        defer { nextID += 1 }
        waiting[nextID] = reply
        started = started.filter { now.milliseconds - $0.milliseconds < 60_000 } + [now]
        return nextID
    }

    /// The reply waiting for probe `id` (nil: unknown or already answered).
    mutating func answer(_ id: UInt64) -> DeferredReply? {
        waiting.removeValue(forKey: id)
    }
}
