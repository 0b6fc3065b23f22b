import CEBUR128
import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// The station's loudness levelling (`StationLeveller`), fed as the player feeds it (blocks of
/// 4,096 frames at 48 kHz) with seeded white noise at a known level, the result measured by a
/// separate libebur128: a station 13 dB over the noises' level or 12 dB under it is brought to it
/// within 1 LU; one further off moves by the ±12 dB cap and no further; a programme with pauses is
/// not lifted in its pauses (the gain stays within 0.5 dB across them: no pumping); a station that
/// turns 15 dB louder is turned down within seconds, one that turns quieter up slowly.
struct StationLevellerTests {
    static let rate = 48_000
    static let block = 4096

    /// Seeded white noise (SplitMix64), the same on both channels, RMS `rms`.
    struct Noise {
        var random = SplitMix64(seed: 29)

        mutating func frames(_ count: Int, rms: Float) -> [Float] {
            var out = [Float](repeating: 0, count: 2 * count)
            for frame in 0..<count {
                // Uniform −1…1 has RMS 1/√3.
                let uniform = random.uniform()
                out[2 * frame] = uniform * rms * Float(3).squareRoot()
                out[2 * frame + 1] = out[2 * frame]
            }
            return out
        }
    }

    /// Integrated loudness of `frames` (stereo, 48 kHz) by libebur128, LUFS.
    static func lufs(_ frames: [Float]) -> Double {
        var state = ebur128_init(2, UInt(rate), Int32(EBUR128_MODE_I.rawValue))
        defer { ebur128_destroy(&state) }
        frames.withUnsafeBufferPointer { _ = ebur128_add_frames_float(state, $0.baseAddress!, frames.count / 2) }
        var value = 0.0
        ebur128_loudness_global(state, &value)
        return value
    }

    /// Feeds `frames` in the player's blocks; the gain after each block.
    static func feed(_ leveller: StationLeveller, _ frames: [Float]) -> [Double] {
        var gains: [Double] = []
        frames.withUnsafeBufferPointer { all in
            var start = 0
            while start < frames.count / 2 {
                let count = min(block, frames.count / 2 - start)
                gains.append(leveller.measure(all.baseAddress! + 2 * start, count: count))
                start += count
            }
        }
        return gains
    }

    static func decibels(_ gain: Double) -> Double { 20 * log10(gain) }

    @Test(arguments: [Float(0.2), 0.05, 0.01, 0.003])
    func aStationIsBroughtToTheNoisesLevelWithinItsCap(rms: Float) throws {
        let leveller = try #require(StationLeveller(sampleRate: Self.rate))
        var noise = Noise()
        let before = Self.lufs(noise.frames(Self.rate * 10, rms: rms))
        _ = Self.feed(leveller, noise.frames(Self.rate * 10, rms: rms))
        let gain = leveller.gain
        let after = Self.lufs(noise.frames(Self.rate * 5, rms: rms).map { $0 * Float(gain) })
        let wanted = min(max(SoundLevel.noiseLUFS - before, -12), 12)
        print("station at \(String(format: "%.1f", before)) LUFS: gain \(String(format: "%+.2f", Self.decibels(gain))) dB, "
            + "then \(String(format: "%.1f", after)) LUFS (target \(SoundLevel.noiseLUFS), cap ±12 dB)")
        #expect(abs(Self.decibels(gain) - wanted) < 1, "the gain: \(Self.decibels(gain)) dB, wanted \(wanted)")
        #expect(abs(after - (before + wanted)) < 1)
    }

    @Test func pausesAreNotLiftedSoTheGainDoesNotPump() throws {
        let leveller = try #require(StationLeveller(sampleRate: Self.rate))
        var noise = Noise()
        _ = Self.feed(leveller, noise.frames(Self.rate * 10, rms: 0.02))
        // Then 3 s of programme and 2 s of a pause 26 dB under it (above the −70 LUFS gate: the
        // relative gate must leave it out), ten times.
        var gains: [Double] = []
        for _ in 0..<10 {
            gains += Self.feed(leveller, noise.frames(Self.rate * 3, rms: 0.02))
            gains += Self.feed(leveller, noise.frames(Self.rate * 2, rms: 0.001))
        }
        let spread = Self.decibels(gains.max()!) - Self.decibels(gains.min()!)
        print("programme with pauses: the gain within \(String(format: "%.3f", spread)) dB over 50 s")
        #expect(spread < 0.5)
    }

    /// As an AGC: 15 dB louder is followed within seconds (a sleeper is not blasted for long),
    /// 15 dB quieter slowly (speech and music are not ridden), both within 1 dB after a minute.
    @Test func aLouderStationIsTurnedDownWithinSecondsAQuieterOneUpSlowly() throws {
        let leveller = try #require(StationLeveller(sampleRate: Self.rate))
        var noise = Noise()
        let (quiet, loud): (Float, Float) = (0.01, 0.056)
        let wantedQuiet = SoundLevel.noiseLUFS - Self.lufs(noise.frames(Self.rate * 5, rms: quiet))
        let wantedLoud = SoundLevel.noiseLUFS - Self.lufs(noise.frames(Self.rate * 5, rms: loud))
        _ = Self.feed(leveller, noise.frames(Self.rate * 20, rms: quiet))
        let settled = Self.decibels(leveller.gain)
        let louder = Self.feed(leveller, noise.frames(Self.rate * 60, rms: loud)).map(Self.decibels)
        let quieter = Self.feed(leveller, noise.frames(Self.rate * 60, rms: quiet)).map(Self.decibels)
        let second = Self.rate / Self.block  // blocks in about a second
        func format(_ value: Double) -> String { String(format: "%+.2f", value) }
        print("gain \(format(settled)) dB (wanted \(format(wantedQuiet))); 15 dB louder: after 2 s \(format(louder[2 * second])), "
            + "5 s \(format(louder[5 * second])), 60 s \(format(louder.last!)) (wanted \(format(wantedLoud))); back 15 dB quieter: "
            + "after 5 s \(format(quieter[5 * second])), 60 s \(format(quieter.last!))")
        #expect(abs(settled - wantedQuiet) < 1)
        #expect(abs(louder[5 * second] - wantedLoud) < 2, "turned down within 5 s")
        #expect(abs(louder.last! - wantedLoud) < 1)
        #expect(quieter[5 * second] - wantedLoud < 6, "turned up slowly")
        #expect(abs(quieter.last! - wantedQuiet) < 1)
    }
}
