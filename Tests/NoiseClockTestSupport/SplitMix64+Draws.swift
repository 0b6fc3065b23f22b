import NoiseClockCore

/// The draws the tests make from the node's seeded generator.
extension SplitMix64 {
    /// Uniform in 0..<`bound` (modulo: the tests' bounds are far below 2^64, the bias negligible).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Uniform in −1…1.
    public mutating func uniform() -> Float { Float(Double(next()) / Double(UInt64.max)) * 2 - 1 }
}
