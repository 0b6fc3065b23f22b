#if canImport(Glibc)
import Glibc
#endif

/// A second-order Butterworth high-pass at 25 Hz (RBJ cookbook), one channel: removes the
/// rumble below 20 Hz that no one hears but that eats headroom (a leaky-integrator brown noise
/// puts ~70% of its power there). Zero gain at DC, so the output cannot drift.
/// Double precision: at 25 Hz the poles sit within 0.005 of 1, where Float round-off, fed back
/// through the filter's large low-frequency gain, would add measurable noise.
struct SubsonicFilter {
    static let cutoff: Double = 25
    private let b0: Double, b1: Double, a1: Double, a2: Double
    private var z1 = 0.0, z2 = 0.0

    init(sampleRate: Int) {
        let w = 2 * Double.pi * Self.cutoff / Double(sampleRate)
        let cosw = cos(w), alpha = sin(w) / (2 * 0.70710678)
        let a0 = 1 + alpha
        b0 = (1 + cosw) / 2 / a0
        b1 = -(1 + cosw) / a0
        a1 = -2 * cosw / a0
        a2 = (1 - alpha) / a0
    }

    var coefficients: (Double, Double, Double, Double) { (b0, b1, a1, a2) }

    @inline(__always) mutating func process(_ input: Float) -> Float {
        let x = Double(input)
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b0 * x - a2 * y  // b2 == b0 for a high-pass
        return Float(y)
    }
}

/// `StereoSubsonicFilter` in direct form I with the feedback added last and its gain b0 left
/// out (the output comes out 1/b0 too large: scale the input by `outputScale`): a sample waits
/// on the one before it for one multiply and one subtraction instead of four operations.
struct ShortChainStereoSubsonicFilter {
    private let a1: Double, a2: Double
    /// The filter's b0.
    let outputScale: Float
    private var x1 = SIMD2<Double>(), x2 = SIMD2<Double>(), y1 = SIMD2<Double>(), y2 = SIMD2<Double>()

    init(sampleRate: Int) {
        let (b0, b1, a1, a2) = SubsonicFilter(sampleRate: sampleRate).coefficients
        outputScale = Float(b0)
        precondition(b1 / b0 == -2, "not a high-pass")  // b0 is half of -b1, exactly
        self.a1 = a1
        self.a2 = a2
    }

    @inline(__always) mutating func process(_ input: SIMD2<Float>) -> SIMD2<Float> {
        let x = SIMD2<Double>(Double(input.x), Double(input.y))
        // b1/b0 == -2 and b2 == b0 for a high-pass: the numerator adds and subtracts.
        let y = (x + ((x2 - (x1 + x1)) - a2 * y2)) - a1 * y1
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return SIMD2<Float>(Float(y.x), Float(y.y))
    }
}
