import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// The three noise colours: slope, flatness, independence, level, DC and headroom.
@Suite struct NoiseColourTests {
    static let rate = 48000

    static func source(_ colour: String) -> any SoundSource {
        switch colour {
        case "white": WhiteNoise(seed: 1)
        case "pink": PinkNoise(seed: 2)
        default: BrownNoise(sampleRate: rate, seed: 3)
        }
    }

    @Test(arguments: [("white", 0.0), ("pink", -3.0), ("brown", -6.0)])
    func spectralSlopeMatchesColour(colour: String, expected: Double) {
        let (left, right) = renderChannels(Self.source(colour), frames: Self.rate * 20)
        for channel in [left, right] {
            let (slope, deviation) = Spectrum.slope(Spectrum.welch(channel), sampleRate: Self.rate, from: 100, to: 10_000)
            #expect(abs(slope - expected) <= 1, "\(colour) slope \(slope) dB/octave")
            // White must be flat: no band more than 1 dB off the line.
            if colour == "white" { #expect(deviation <= 1, "white deviates \(deviation) dB") }
        }
    }

    @Test(arguments: ["white", "pink", "brown"])
    func channelsAreIndependent(colour: String) {
        let (left, right) = renderChannels(Self.source(colour), frames: Self.rate * 10)
        #expect(abs(correlation(left, right)) < 0.1)
    }

    @Test(arguments: ["white", "pink", "brown"])
    func noDCAndNoClipping(colour: String) {
        let (left, right) = renderChannels(Self.source(colour), frames: Self.rate * 60)
        for channel in [left, right] {
            // Brown noise wanders slowly; over a minute its mean stays within 15% of its RMS.
            #expect(abs(mean(channel)) < 0.15 * rms(channel), "\(colour) DC \(mean(channel))")
            #expect(channel.allSatisfy { abs($0) < 1 }, "\(colour) reaches full scale")
        }
    }

    /// Every noise (colours and textures) at the same A-weighted loudness, so switching keeps
    /// the level the ear hears: each within 1 dB of the common loudness, all six within 1.5 dB
    /// of each other, and none reaching full scale. (Equal RMS is not equal loudness: brown
    /// noise at white's RMS sounded 15 dB quieter.)
    @Test func noisesHaveEqualAWeightedLoudness() throws {
        let target = decibels(Double(SoundLevel.noiseLoudness))
        var levels: [String: Double] = [:]
        for sound in ["white", "pink", "brown", "rain", "ocean", "fan"] {
            let source: any SoundSource = switch sound {
            case "rain": RainSound(sampleRate: Self.rate, seed: 4)
            case "ocean": OceanSound(sampleRate: Self.rate, seed: 5)
            case "fan": FanSound(sampleRate: Self.rate, seed: 6)
            default: Self.source(sound)
            }
            // A minute: several whole ocean waves and rain gusts.
            let (left, right) = renderChannels(source, frames: Self.rate * 60)
            let level = AWeightedLevel.decibels(left, right, sampleRate: Self.rate)
            levels[sound] = level
            #expect(abs(level - target) <= 1, "\(sound) is \(level - target) dB from the common loudness")
            #expect(left.allSatisfy { abs($0) < 1 } && right.allSatisfy { abs($0) < 1 }, "\(sound) reaches full scale")
        }
        let spread = levels.values.max()! - levels.values.min()!
        #expect(spread <= 1.5, "A-weighted levels spread \(spread) dB: \(levels)")
    }

    @Test func differentSeedsNeverPlayTheSameNoise() {
        let a = renderChannels(WhiteNoise(seed: 10), frames: 4800).left
        let b = renderChannels(WhiteNoise(seed: 11), frames: 4800).left
        #expect(abs(correlation(a, b)) < 0.1)
    }

    @Test(arguments: AlarmTone.allCases)
    func tonesAreAudibleAndBounded(tone: AlarmTone) {
        let frames = Int(tone.cycleSeconds * Double(Self.rate)) * 2
        let (left, right) = renderChannels(ToneSource(tone, sampleRate: Self.rate), frames: frames)
        #expect(rms(left) > 0.05, "\(tone) is too quiet")
        #expect(left.allSatisfy { abs($0) < 1 })
        #expect(left == right)
        // The pattern's end is silent or continuous: no jump at the repeat.
        let cycle = frames / 2
        #expect(abs(left[cycle] - left[cycle - 1]) < 0.2)
    }
}
