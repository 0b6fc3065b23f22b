/// A `Biquad` (any of its shapes) for both channels, in direct form I with the feedback added
/// last: a sample waits on the one before it for one multiply and one subtraction, where the
/// transposed form (`Biquad`) chains four operations. For a loop that has nothing longer
/// to wait on (rain's), that chain set its pace.
///
/// The feed-forward gain b0 is left out (these shapes' b1 and b2 are multiples of it): the
/// output comes out 1/b0 too large, and `outputScale` is what to multiply it by, folded into
/// the caller's gain. What is left of the feed-forward part is b1/b0 and b2/b0, exactly
/// (2, 1), (-2, 1) or (0, -1) by shape (`Biquad` makes b1 and b2 from b0's value by a power of
/// two): each shape has its own `process`, which adds and subtracts where a multiply by those
/// would be, the same samples with two or three operations fewer.
struct ShortChainStereoBiquad {
    private let c1: Float, c2: Float, a1: Float, a2: Float
    /// The filter's b0.
    let outputScale: Float
    private var x1 = SIMD2<Float>(), x2 = SIMD2<Float>(), y1 = SIMD2<Float>(), y2 = SIMD2<Float>()

    init(_ filter: Biquad) {
        let (b0, b1, b2, a1, a2) = filter.coefficients
        precondition(b0 != 0, "a filter with no direct path")
        outputScale = b0
        c1 = b1 / b0
        c2 = b2 / b0
        self.a1 = a1
        self.a2 = a2
    }

    /// `x` through a low-pass, times 1/b0.
    @inline(__always) mutating func processLowPass(_ x: SIMD2<Float>) -> SIMD2<Float> {
        assert(c1 == 2 && c2 == 1, "not a low-pass")
        return step(x, feedForward: (x1 + x1) + x2)
    }

    /// `x` through a high-pass, times 1/b0.
    @inline(__always) mutating func processHighPass(_ x: SIMD2<Float>) -> SIMD2<Float> {
        assert(c1 == -2 && c2 == 1, "not a high-pass")
        return step(x, feedForward: x2 - (x1 + x1))
    }

    /// `x` through a band-pass, times 1/b0.
    @inline(__always) mutating func processBandPass(_ x: SIMD2<Float>) -> SIMD2<Float> {
        assert(c1 == 0 && c2 == -1, "not a band-pass")
        return step(x, feedForward: -x2)
    }

    /// One frame on, given c1 x1 + c2 x2.
    @inline(__always) private mutating func step(_ x: SIMD2<Float>, feedForward: SIMD2<Float>) -> SIMD2<Float> {
        // All but x and the last feedback term is ready a frame early: a sample waits two
        // operations for its input as well.
        let y = (x + (feedForward - a2 * y2)) - a1 * y1
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
