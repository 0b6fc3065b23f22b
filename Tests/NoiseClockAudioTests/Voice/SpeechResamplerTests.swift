import Testing
@testable import NoiseClockAudio

/// eSpeak NG's 22 050 Hz brought to the device's rate: the whole utterance comes out, the filter's
/// response before its first sample and after its last one included (libsoxr's one-shot output alone
/// is aligned on the input's length and cuts both).
@Suite struct SpeechResamplerTests {
    static func energy(_ samples: [Int16]) -> Double { samples.reduce(0) { $0 + Double($1) * Double($1) } }

    /// A full-scale click alone in 2000 samples of silence, at `index`.
    static func click(at index: Int) -> [Int16] {
        var samples = [Int16](repeating: 0, count: 2000)
        samples[index] = .max
        return samples
    }

    /// A click at the first or the last sample keeps the energy of one in the middle (within 0.01 %
    /// measured): without the margins, at 48 kHz, 71 % and 96 % of it; at 16 kHz 88 % and 47 %.
    @Test(arguments: [48000, 44100, 96000, 16000, 8000])
    func aClickAtEitherEndComesOutWhole(rate: Int) {
        let middle = Self.energy(SpeechResampler.resample(Self.click(at: 1000), from: 22050, to: rate))
        for index in [0, 1999] {
            let edge = Self.energy(SpeechResampler.resample(Self.click(at: index), from: 22050, to: rate))
            print("resampled to \(rate) Hz: a click at sample \(index) keeps \(edge / middle) of the middle one's energy")
            #expect(abs(edge / middle - 1) < 0.005, "a click at \(index), \(rate) Hz: \(edge / middle) of the middle one's energy")
        }
    }

    /// The silence on each side is known, so the utterance's timing is: its length at the new rate
    /// plus the two margins.
    @Test(arguments: [48000, 16000])
    func theLengthIsTheUtterancesPlusTheMargins(rate: Int) {
        let samples = Self.click(at: 1000)
        let margin = SpeechResampler.margin(from: 22050, to: rate)
        let expected = Double(samples.count + 2 * margin) * Double(rate) / 22050
        #expect(abs(Double(SpeechResampler.resample(samples, from: 22050, to: rate).count) - expected) <= 1)
        #expect(SpeechResampler.resample(samples, from: 22050, to: 22050) == samples)
    }

    /// A real Korean utterance: what is said at 48 kHz carries all of eSpeak NG's energy (the band
    /// limit of 22 050 Hz speech takes nothing audible).
    @Test func aKoreanUtteranceComesOutWhole() throws {
        let utterance = try SpeechSynthesizer.shared.synthesize("오전 6시 45분, 화요일", voice: "ko", rate: 160)
        let resampled = SpeechResampler.resample(utterance.samples, from: utterance.sampleRate, to: 48000)
        let ratio = Self.energy(resampled) * Double(utterance.sampleRate) / 48000 / Self.energy(utterance.samples)
        print("Korean utterance: \(utterance.samples.count) samples at 22 050 Hz, \(resampled.count) at 48 kHz, energy kept \(ratio)")
        #expect(abs(ratio - 1) < 0.005, "energy kept: \(ratio)")
    }
}
