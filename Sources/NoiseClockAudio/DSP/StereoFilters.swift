/// The stereo forms of the per-channel filters: left and right in one `SIMD2`, so one vector
/// instruction does what two scalar ones did. Each computes exactly what its one-channel form
/// does, operation for operation (IEEE arithmetic, no fused multiply-add), so a generator moved
/// onto them renders the same samples bit for bit; only the instruction count halves. (The
/// short-chain forms for rain and fan, `ShortChainStereoBiquad` and
/// `ShortChainStereoSubsonicFilter`, are the same filters rounded differently; their pink
/// noise is `FittedPinkFilters`.)

/// `SubsonicFilter` for both channels, in double precision as it is.
struct StereoSubsonicFilter {
    private let b0: Double, b1: Double, a1: Double, a2: Double
    private var z1 = SIMD2<Double>(), z2 = SIMD2<Double>()

    init(sampleRate: Int) { (b0, b1, a1, a2) = SubsonicFilter(sampleRate: sampleRate).coefficients }

    @inline(__always) mutating func process(_ input: SIMD2<Float>) -> SIMD2<Float> {
        let x = SIMD2<Double>(Double(input.x), Double(input.y))
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b0 * x - a2 * y  // b2 == b0 for a high-pass
        return SIMD2<Float>(Float(y.x), Float(y.y))
    }
}

extension NoiseRandom {
    /// `nextPair` as a vector: (left, right).
    @inline(__always) mutating func nextStereo() -> SIMD2<Float> {
        let (left, right) = nextPair()
        return SIMD2(left, right)
    }

    /// `nextPair` as a vector the other way round, (right, left), and not yet scaled: times
    /// `unscaledUnit` it is uniform in [-1, 1). The draw's halves in memory order, which the
    /// compiler converts in two instructions, where `nextStereo` takes them through the vector
    /// unit's multiplier and shifts (a dozen cycles before the first use); the scale folds into
    /// a gain further on (a filter chain is linear).
    @inline(__always) mutating func nextStereoUnscaled() -> SIMD2<Float> {
        SIMD2<Float>(unsafeBitCast(next(), to: SIMD2<Int32>.self))
    }

    static let unscaledUnit: Float = 1.0 / 2_147_483_648.0
}
