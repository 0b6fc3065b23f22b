import CEBUR128
import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// The levelling's meter (`HalfRateMomentaryLoudness`: K-weighting of every other frame) against
/// libebur128's momentary loudness of every frame, block by block, on the signals that test it
/// hardest: white noise (the most energy above a quarter of the rate, which folds), pink noise,
/// and tones low, bright and above a quarter of the rate; at 48 and 44.1 kHz, levels 30 dB apart.
struct HalfRateMomentaryLoudnessTests {
    /// Seeded stereo test signals (SplitMix64 for the noise), 6 s of them.
    static func signal(_ kind: String, rate: Int, amplitude: Float) -> [Float] {
        let count = 6 * rate
        var out = [Float](repeating: 0, count: 2 * count)
        var random = SplitMix64(seed: 40)
        func uniform() -> Float { random.uniform() }
        var pink = (Float(0), Float(0), Float(0))
        for i in 0..<count {
            let t = Float(i) / Float(rate)
            let left: Float, right: Float
            switch kind {
            case "white":
                left = uniform()
                right = uniform()
            case "pink":  // Paul Kellet's economy filter: within 0.5 dB of pink over the band
                let w = uniform()
                pink.0 = 0.99765 * pink.0 + w * 0.0990460
                pink.1 = 0.96300 * pink.1 + w * 0.2965164
                pink.2 = 0.57000 * pink.2 + w * 1.0526913
                left = (pink.0 + pink.1 + pink.2 + w * 0.1848) / 4
                right = left
            default:  // "tone:<hz>", a different phase on each channel
                let hz = Float(kind.dropFirst(5))!
                left = sinf(2 * .pi * hz * t)
                right = sinf(2 * .pi * hz * t + 1)
            }
            out[2 * i] = left * amplitude
            out[2 * i + 1] = right * amplitude
        }
        return out
    }

    /// libebur128's momentary loudness at the end of each 100 ms block from the fourth on.
    static func reference(_ frames: [Float], rate: Int) -> [Double] {
        var state = ebur128_init(2, UInt(rate), Int32(EBUR128_MODE_M.rawValue))
        defer { ebur128_destroy(&state) }
        let block = rate / 10
        var values: [Double] = []
        frames.withUnsafeBufferPointer { all in
            for b in 0..<(frames.count / 2 / block) {
                _ = ebur128_add_frames_float(state, all.baseAddress! + 2 * b * block, block)
                var value = 0.0
                if b >= 3, ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS.rawValue { values.append(value) }
            }
        }
        return values
    }

    /// The meter's values, fed in the player's odd-sized pieces (1,999 frames) so blocks and
    /// the kept frames' parity cross the pieces' edges.
    static func measured(_ frames: [Float], rate: Int) -> [Double] {
        var meter = HalfRateMomentaryLoudness(sampleRate: rate)
        var values: [Double] = []
        frames.withUnsafeBufferPointer { all in
            var start = 0
            while start < frames.count / 2 {
                let count = min(1999, frames.count / 2 - start)
                meter.add(all.baseAddress! + 2 * start, count: count) { values.append($0) }
                start += count
            }
        }
        return values
    }

    /// Each block within 0.1 dB, and the mean, which the levelling follows; white noise, the worst
    /// case (a quarter of its energy lies above a quarter of the rate, and folds to where the shelf
    /// gives a little less), within 0.25 dB a block and 0.2 dB on average (0.18 and 0.19 measured:
    /// a station's encoder cuts most of that band).
    @Test(arguments: ["white", "pink", "tone:100", "tone:1000", "tone:7000", "tone:15000"], [48_000, 44_100])
    func withinAQuarterOfADecibelOfLibebur128AtTheFullRate(kind: String, rate: Int) {
        for amplitude: Float in [0.5, 0.016] {
            let frames = Self.signal(kind, rate: rate, amplitude: amplitude)
            let want = Self.reference(frames, rate: rate), got = Self.measured(frames, rate: rate)
            #expect(got.count == want.count && !got.isEmpty, "\(kind) at \(rate): \(got.count) blocks, libebur128 \(want.count)")
            let errors = zip(got, want).map { $0 - $1 }
            let worst = errors.map(abs).max() ?? .infinity, mean = errors.reduce(0, +) / Double(max(errors.count, 1))
            #expect(worst <= (kind == "white" ? 0.25 : 0.1), "\(kind) at \(rate) Hz, amplitude \(amplitude): \(worst) dB off libebur128")
            #expect(abs(mean) <= (kind == "white" ? 0.2 : 0.1), "\(kind) at \(rate) Hz, amplitude \(amplitude): \(mean) dB off libebur128 on average")
        }
    }

    @Test func digitalSilenceIsMinusInfinity() {
        let values = Self.measured([Float](repeating: 0, count: 2 * 48_000), rate: 48_000)
        #expect(values.count == 7 && values.allSatisfy { $0 == -.infinity })
    }
}
