#if canImport(Glibc)
import Glibc
#endif

/// Loudness as the ear weighs it: the IEC 61672 A-weighting curve applied to a Welch spectrum.
enum AWeightedLevel {
    /// The A-weighting gain (amplitude, 1 at 1 kHz) at `f` Hz: IEC 61672-1 equation E.6 with its
    /// pole frequencies and the +2.00 dB normalisation.
    static func gain(_ f: Double) -> Double {
        let f1 = 20.598997, f2 = 107.65265, f3 = 737.86223, f4 = 12194.217
        let f2sq = f * f
        let r = f4 * f4 * f2sq * f2sq / ((f2sq + f1 * f1) * ((f2sq + f2 * f2) * (f2sq + f3 * f3)).squareRoot() * (f2sq + f4 * f4))
        return r * pow(10, 2.0 / 20)
    }

    /// A-weighted RMS of a mono signal (full scale = 1): its mean square times the weighted share
    /// of its spectrum. 16384-point segments (2.9 Hz bins) so that the large sub-20 Hz power of
    /// pink noise does not leak into the audible bins and inflate the estimate.
    static func rms(_ signal: [Float], sampleRate: Int, size: Int = 16384) -> Double {
        let power = Spectrum.welch(signal, size: size)
        let binHz = Double(sampleRate) / Double(size)
        var weighted = 0.0
        for (k, p) in power.enumerated() { weighted += p * pow(gain(Double(k) * binHz), 2) }
        let total = power.reduce(0, +)
        let meanSquare = signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(signal.count)
        return (meanSquare * weighted / total).squareRoot()
    }

    /// Both channels together, in dB relative to full scale.
    static func decibels(_ left: [Float], _ right: [Float], sampleRate: Int) -> Double {
        let l = rms(left, sampleRate: sampleRate), r = rms(right, sampleRate: sampleRate)
        return 10 * log10((l * l + r * r) / 2)
    }
}
