#if canImport(Glibc)
import Glibc
#endif

/// A second-order filter (RBJ audio-EQ cookbook), transposed direct form II, one channel.
struct Biquad {
    private var b0: Float = 1, b1: Float = 0, b2: Float = 0, a1: Float = 0, a2: Float = 0
    private var z1: Float = 0, z2: Float = 0

    enum Shape { case lowPass, highPass, bandPass }

    init(_ shape: Shape, frequency: Float, q: Float = 0.7071, sampleRate: Int) {
        setCoefficients(shape, frequency: frequency, q: q, sampleRate: sampleRate)
    }

    /// Retunes without clearing the state, so a swept filter stays continuous.
    mutating func setCoefficients(_ shape: Shape, frequency: Float, q: Float, sampleRate: Int) {
        let w = 2 * Float.pi * min(frequency, Float(sampleRate) * 0.45) / Float(sampleRate)
        let cosw = cosf(w), alpha = sinf(w) / (2 * q)
        let a0 = 1 + alpha
        switch shape {
        case .lowPass:
            b0 = (1 - cosw) / 2 / a0; b1 = (1 - cosw) / a0; b2 = b0
        case .highPass:
            b0 = (1 + cosw) / 2 / a0; b1 = -(1 + cosw) / a0; b2 = b0
        case .bandPass:
            b0 = alpha / a0; b1 = 0; b2 = -alpha / a0
        }
        a1 = -2 * cosw / a0
        a2 = (1 - alpha) / a0
    }

    var coefficients: (Float, Float, Float, Float, Float) { (b0, b1, b2, a1, a2) }

    @inline(__always) mutating func process(_ x: Float) -> Float {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}
