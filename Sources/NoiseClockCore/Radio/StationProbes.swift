/// `station/test` commands waiting for their probe (`NodeEffect.probeStation`), by probe id: a
/// machine feature, as speech and buttons are, so the answer echoes the command's `request_id`.
struct StationProbes: Sendable {
    /// At most this many probes at once (each holds a thread up to 8 s).
    static let limit = 4

    private var waiting: [UInt64: DeferredReply] = [:]
    private var nextID: UInt64 = 1

    var isFull: Bool { waiting.count >= Self.limit }

    /// Keeps `reply` until the probe with the returned id comes back.
    mutating func wait(_ reply: DeferredReply) -> UInt64 {
        defer { nextID += 1 }
        waiting[nextID] = reply
        return nextID
    }

    /// The reply waiting for probe `id` (nil: unknown or already answered).
    mutating func answer(_ id: UInt64) -> DeferredReply? {
        waiting.removeValue(forKey: id)
    }
}
