#if canImport(Glibc)
import Glibc
#endif

/// The A-weighting curve of IEC 61672 as a time-domain filter: its analog poles (20.6 Hz twice,
/// 107.7 Hz, 737.9 Hz, 12.2 kHz twice) as six first-order sections, each through the bilinear
/// transform with its corner pre-warped, scaled to 0 dB at 1 kHz. Within 0.2 dB of the exact
/// curve's weighted level for white, pink and brown noise at 44.1 and 48 kHz. Used once per
/// decoded file (not per sample of playback) to match its loudness to the built-in noises'.
enum AWeighting {
    private struct Section {
        var b0: Double, b1: Double, a1: Double
        var x1 = 0.0, y1 = 0.0

        /// `highPass`: s / (s + ω); otherwise ω / (s + ω).
        init(corner: Double, highPass: Bool, sampleRate: Int) {
            let k = 2 * Double(sampleRate)
            let w = k * tan(Double.pi * corner / Double(sampleRate))
            let a0 = k + w
            b0 = (highPass ? k : w) / a0
            b1 = (highPass ? -k : w) / a0
            a1 = (w - k) / a0
        }

        mutating func process(_ x: Double) -> Double {
            let y = b0 * x + b1 * x1 - a1 * y1
            x1 = x
            y1 = y
            return y
        }

        /// |H| at `frequency`.
        func magnitude(at frequency: Double, sampleRate: Int) -> Double {
            let w = 2 * Double.pi * frequency / Double(sampleRate)
            let numerator = hypot(b0 + b1 * cos(w), b1 * sin(w))
            let denominator = hypot(1 + a1 * cos(w), a1 * sin(w))
            return numerator / denominator
        }
    }

    private static func sections(sampleRate: Int) -> [Section] {
        [(20.598997, true), (20.598997, true), (107.65265, true), (737.86223, true), (12194.217, false), (12194.217, false)]
            .map { Section(corner: $0.0, highPass: $0.1, sampleRate: sampleRate) }
    }

    /// The A-weighted RMS of interleaved stereo samples (both channels together).
    static func rms(_ interleaved: [Float], sampleRate: Int) -> Float {
        let template = sections(sampleRate: sampleRate)
        let gainAt1k = template.reduce(1.0) { $0 * $1.magnitude(at: 1000, sampleRate: sampleRate) }
        var sum = 0.0
        for channel in 0..<2 {
            var chain = template
            for i in stride(from: channel, to: interleaved.count, by: 2) {
                var x = Double(interleaved[i])
                for s in chain.indices { x = chain[s].process(x) }
                sum += x * x
            }
        }
        return Float((sum / Double(max(1, interleaved.count))).squareRoot() / gainAt1k)
    }
}
