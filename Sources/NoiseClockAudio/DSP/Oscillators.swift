#if canImport(Glibc)
import Glibc
#endif

/// Two sine oscillators side by side (a fan's motor hum and its blades' beat): each a phasor
/// (cos, sin) turned by its frequency's angle once a frame, in single precision (double cost the
/// fan's shaping loop a conversion each way and 14 % more time; a float phasor drifts off the
/// unit circle by ~10⁻⁷ a frame, pulled back each block). Four multiplies and two adds a frame
/// for both, where a table lookup cost a float-to-index conversion, two bounds checks and an
/// interpolation per sine; and the second harmonic of the first comes free (sin 2θ = 2 sin θ
/// cos θ). Renormalised once a block, so its amplitude stays 1 for good.
struct QuadratureOscillators {
    private var cosine: SIMD2<Float>, sine: SIMD2<Float>
    private let stepCosine: SIMD2<Float>, stepSine: SIMD2<Float>

    /// `frequencies` in Hz; the first frame is one step in (phase 2π f / rate), as the fan's
    /// phase counters were.
    init(_ frequencies: SIMD2<Double>, sampleRate: Int) {
        let step = 2 * Double.pi * frequencies / Double(sampleRate)
        stepCosine = SIMD2(Float(cos(step.x)), Float(cos(step.y)))
        stepSine = SIMD2(Float(sin(step.x)), Float(sin(step.y)))
        cosine = SIMD2(repeating: 1)
        sine = SIMD2()
    }

    /// Advances one frame: (sin θ₁, sin θ₂) and cos θ₁ of the new phases.
    @inline(__always) mutating func next() -> (sine: SIMD2<Float>, cosine: SIMD2<Float>) {
        let c = cosine * stepCosine - sine * stepSine
        sine = sine * stepCosine + cosine * stepSine
        cosine = c
        return (sine, cosine)
    }

    /// Pulls the phasors back onto the unit circle (rounding drifts them by ~10⁻⁷ a frame).
    mutating func renormalise() {
        let scale = 1 / (cosine * cosine + sine * sine).squareRoot()
        cosine *= scale
        sine *= scale
    }
}
