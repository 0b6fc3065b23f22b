#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import NoiseClockAudio

/// Rain's and the fan's sound pinned octave by octave: their DSP is tuned for the CPU of a mix
/// (docs/performance.md, the worst mix), and a cheaper loop must still make the same sound. The
/// levels (dB of each octave band's power, both channels, seeded) are those of the generators as
/// they were before the mix's issue 39 pass (864e8d2); an octave more than `tolerance` off fails.
/// Octaves 30 dB and more below the loudest are held to 1.5 dB (what is left there is the
/// filters' far skirts, inaudible under the body).
@Suite struct TextureSpectrumTests {
    static let rate = 48000
    static let centres: [Double] = [31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    static let tolerance = 0.3, farTolerance = 1.5

    static let rainOctaves: [Double] = [-8.65, 4.34, 15.54, 26.00, 32.48, 34.05, 34.46, 35.40, 35.08, 34.36]
    static let fanOctaves: [Double] = [40.15, 41.79, 41.60, 41.34, 40.44, 36.44, 27.03, 10.82, -10.13, -16.68]

    /// Each octave's power in dB, the two channels' powers averaged.
    static func octaveLevels(_ source: any SoundSource, seconds: Int) -> [Double] {
        let (left, right) = renderChannels(source, frames: rate * seconds)
        let size = 8192
        let power = zip(Spectrum.welch(left, size: size), Spectrum.welch(right, size: size)).map { ($0 + $1) / 2 }
        let binHz = Double(rate) / Double(size)
        return centres.map { centre in
            let low = Int((centre / 2.squareRoot() / binHz).rounded(.up)), high = Int((centre * 2.squareRoot() / binHz).rounded(.down))
            return 10 * log10(power[low...min(high, power.count - 1)].reduce(0, +))
        }
    }

    static func expectSame(_ name: String, measured: [Double], pinned: [Double]) {
        let loudest = pinned.max()!
        for (index, centre) in centres.enumerated() {
            let allowed = pinned[index] < loudest - 30 ? farTolerance : tolerance
            let difference = measured[index] - pinned[index]
            #expect(abs(difference) <= allowed, "\(name) \(centre) Hz octave \(difference) dB off (measured \(measured))")
        }
    }

    @Test func rainKeepsItsOctaves() {
        Self.expectSame("rain", measured: Self.octaveLevels(RainSound(sampleRate: Self.rate, seed: 4), seconds: 30), pinned: Self.rainOctaves)
    }

    @Test func fanKeepsItsOctaves() {
        Self.expectSame("fan", measured: Self.octaveLevels(FanSound(sampleRate: Self.rate, seed: 6), seconds: 30), pinned: Self.fanOctaves)
    }
}
