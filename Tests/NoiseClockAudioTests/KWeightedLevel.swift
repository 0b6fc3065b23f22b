#if canImport(Glibc)
import Glibc
#endif

/// Loudness as EBU R128 weighs it, measured independently of libebur128: the ITU-R BS.1770
/// K-weighting filter (its published 48 kHz biquads) applied to a Welch spectrum. Ungated,
/// which for the steady sounds measured here is the same as R128's integrated loudness.
enum KWeightedLevel {
    /// |H(f)|² of one biquad at 48 kHz.
    static func biquadPower(_ b: [Double], _ a: [Double], _ f: Double) -> Double {
        let w = 2 * Double.pi * f / 48000
        func response(_ c: [Double]) -> (Double, Double) {
            (c[0] + c[1] * cos(-w) + c[2] * cos(-2 * w), c[1] * sin(-w) + c[2] * sin(-2 * w))
        }
        let (br, bi) = response(b), (ar, ai) = response(a)
        return (br * br + bi * bi) / (ar * ar + ai * ai)
    }

    static func power(_ f: Double) -> Double {
        biquadPower([1.53512485958697, -2.69169618940638, 1.19839281085285], [1, -1.69065929318241, 0.73248077421585], f)
            * biquadPower([1, -2, 1], [1, -1.99004745483398, 0.99007225036621], f)
    }

    /// The K-weighted mean square of a mono signal at 48 kHz.
    static func meanSquare(_ signal: [Float], size: Int = 16384) -> Double {
        let spectrum = Spectrum.welch(signal, size: size)
        let binHz = 48000.0 / Double(size)
        var weighted = 0.0
        for (k, p) in spectrum.enumerated() { weighted += p * power(Double(k) * binHz) }
        let total = spectrum.reduce(0, +)
        let plain = signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(signal.count)
        return plain * weighted / total
    }

    /// Stereo loudness in LUFS (BS.1770: channels summed, −0.691 dB offset).
    static func lufs(_ left: [Float], _ right: [Float]) -> Double {
        -0.691 + 10 * log10(meanSquare(left) + meanSquare(right))
    }
}
