import Foundation
import NoiseClockCore

/// A seeded generator for a test's random choices (when to kill, how long to wait): the same
/// choices on every run, so a failure can be replayed; the environment variable `variable`
/// (a decimal seed) tries others. Tests print `description` in their failure messages.
struct TestSeed: CustomStringConvertible {
    let variable: String
    let seed: UInt64
    var random: SplitMix64

    init(_ variable: String, default fallback: UInt64) {
        self.variable = variable
        seed = ProcessInfo.processInfo.environment[variable].flatMap { UInt64($0) } ?? fallback
        random = SplitMix64(seed: seed)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    var description: String { "seed \(seed) (\(variable)=\(seed) replays it)" }
}
