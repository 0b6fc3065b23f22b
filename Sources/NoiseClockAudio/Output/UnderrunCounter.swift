/// The audio thread's count of underruns for `~/audio` (mqtt-api v1.4 "Audio underruns"): every
/// recovery of the device and every write the engine made after its deadline, since the node
/// started. A count that changed is published at most every `interval` seconds, so a machine
/// that clicks all the time does not flood the broker. Plain integers: the audio thread counts
/// without a lock or an allocation.
struct UnderrunCounter {
    static let interval = 10.0

    private(set) var total = 0
    private var published = 0
    private var publishedAt = -Double.infinity

    mutating func add(_ count: Int) { total += count }

    /// The count to publish now: it changed, and the last publication is `interval` old.
    mutating func due(now: Double) -> Int? {
        guard total != published, now - publishedAt >= Self.interval else { return nil }
        published = total
        publishedAt = now
        return total
    }

    /// Seconds until a count not yet published may be (nil: nothing pending).
    func pendingWait(now: Double) -> Double? {
        total == published ? nil : max(0, publishedAt + Self.interval - now)
    }
}
