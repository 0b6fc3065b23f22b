import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// The float → 16-bit step: rounded and TPDF-dithered, so it adds hiss, never distortion.
@Suite struct PCMConversionTests {
    static func convert(_ signal: [Float], seed: UInt64) -> [Int16] {
        var conversion = PCMConversion(seed: seed)
        var out = [Int16](repeating: 0, count: signal.count)
        signal.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { conversion.toS16(input.baseAddress!, $0.baseAddress!, count: signal.count) }
        }
        return out
    }

    /// A 997 Hz sine (not a submultiple of the rate, so its error is not periodic) at −6 dBFS and
    /// at −30 dBFS: every bin away from the tone is at least 90 dB below it. Truncation left a
    /// harmonic 77.6 dB down at −6 dBFS, and far worse for the quiet tone. (Quieter still, the
    /// dither's flat hiss, not distortion, comes within 90 dB of the tone in a bin.)
    @Test(arguments: [0.5, 0.03])
    func aSineGainsNoDistortion(amplitude: Double) {
        let rate = 48000.0, frequency = 997.0
        let signal = (0..<(1 << 19)).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / rate)) }
        let pcm = Self.convert(signal, seed: 19)
        let power = Spectrum.welch(pcm.map { Float($0) / 32768 }, size: 32768, deep: true)
        let toneBin = Int((frequency / rate * 32768).rounded())
        let tone = power[(toneBin - 7)...(toneBin + 7)].max()!
        var worst = 0.0
        for (k, p) in power.enumerated() where abs(k - toneBin) > 9 && k > 9 { worst = max(worst, p) }
        let below = 10 * log10(tone / worst)
        #expect(below >= 90, "the largest other component is \(below) dB below the tone")
    }

    @Test func roundsClampsAndRepeatsWithItsSeed() {
        let signal: [Float] = [0, 0.25, -0.25, 2, -2, 1, -1] + (0..<1000).map { Float($0) / 1000 - 0.5 }
        let first = Self.convert(signal, seed: 5)
        #expect(first == Self.convert(signal, seed: 5))
        #expect(first != Self.convert(signal, seed: 6))
        #expect(first[3] == 32767 && first[4] == -32768)
        // Silence is not dithered: nothing playing stays digital silence.
        #expect(first[0] == 0 && Self.convert([Float](repeating: 0, count: 4096), seed: 5).allSatisfy { $0 == 0 })
        // The dither is under ±1 step, the rounding ±½: every sample is within 1.5 steps of the exact value.
        for (x, y) in zip(signal, first) where abs(x) < 0.99 {
            #expect(abs(Float(y) - x * 32767) <= 1.5 + 1e-3)
        }
    }
}
