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
