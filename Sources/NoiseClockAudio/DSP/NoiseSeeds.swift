import Synchronization

/// Where a sound library's noise generators get their seeds. A node draws each from the
/// operating system, so no two sources (and no two runs) play the same noise; a test gives one
/// seed, from which every source's seed follows in the order the sources are made, so a run
/// renders the same samples every time and a failure can be replayed.
public final class NoiseSeeds: Sendable {
    /// nil: the operating system's random source.
    public let seed: UInt64?
    private let made = Mutex<UInt64>(0)

    public static let system = NoiseSeeds(nil)

    public init(_ seed: UInt64?) { self.seed = seed }

    /// The next source's seed.
    func next() -> UInt64 {
        guard let seed else { return NoiseRandom.systemSeed() }
        let index = made.withLock { count in
            count += 1
            return count
        }
        // Spread (seed, index) so that neighbouring sources are unrelated (NoiseRandom's init
        // applies splitmix64 to the result once more).
        return seed ^ (index &* 0x9E37_79B9_7F4A_7C15)
    }
}
