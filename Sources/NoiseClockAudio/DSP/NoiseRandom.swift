/// xorshift64*: one 64-bit step yields two independent 32-bit samples (left from the high half,
/// right from the low half). Period 2^64 − 1 frames: at 48 kHz it never repeats in practice.
struct NoiseRandom {
    private var state: UInt64

    init(seed: UInt64) {
        // splitmix64 spreads any seed (including 0) over the state space.
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        state = z == 0 ? 0x2545_F491_4F6C_DD1D : z
    }

    /// A fresh seed from the operating system, so two runs never play the same noise.
    static func systemSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    @inline(__always) mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// Two uniform samples in [-1, 1).
    @inline(__always) mutating func nextPair() -> (Float, Float) {
        let bits = next()
        let scale: Float = 1.0 / 2_147_483_648.0
        return (Float(Int32(truncatingIfNeeded: bits >> 32)) * scale, Float(Int32(truncatingIfNeeded: bits)) * scale)
    }

    /// A uniform value in [0, 1).
    @inline(__always) mutating func nextUnit() -> Float {
        Float(next() >> 40) * (1.0 / 16_777_216.0)
    }
}
