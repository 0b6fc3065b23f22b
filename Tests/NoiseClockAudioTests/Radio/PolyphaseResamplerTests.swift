import Foundation
import Testing

@testable import NoiseClockAudio

/// A station's resampler (issue 40): what it keeps of a tone, what it adds, and that a stream cut
/// into blocks of any size converts to the same samples as one block.
@Suite struct PolyphaseResamplerTests {
    /// `seconds` of a stereo tone at `rate` (amplitude 0.5, the right channel a quarter turn on).
    static func tone(_ hz: Double, rate: Int, seconds: Double = 1.5) -> [Float] {
        let frames = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: 2 * frames)
        for i in 0..<frames {
            let t = 2 * Double.pi * hz * Double(i) / Double(rate)
            samples[2 * i] = Float(0.5 * sin(t))
            samples[2 * i + 1] = Float(0.5 * cos(t))
        }
        return samples
    }

    /// The whole input in one call.
    static func convert(_ input: [Float], from: Int, to: Int) throws -> [Float] {
        let resampler = try #require(PolyphaseResampler(from: from, to: to))
        let frames = input.count / 2
        var output = [Float](repeating: 0, count: 2 * resampler.outputCapacity(forInput: frames))
        let written = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer {
                resampler.process(source.baseAddress!, count: frames, into: $0.baseAddress!, capacity: frames * to / from + 2).written
            }
        }
        return Array(output.prefix(2 * written))
    }

    static func channel(_ stereo: [Float], _ side: Int, skipping frames: Int) -> [Float] {
        stride(from: 2 * frames + side, to: stereo.count, by: 2).map { stereo[$0] }
    }

    /// A tone's level after conversion (dB against its level before), from its RMS past the start.
    static func gainDB(_ hz: Double, from: Int, to: Int) throws -> Double {
        let output = try convert(tone(hz, rate: from), from: from, to: to)
        let left = channel(output, 0, skipping: to / 10)
        let rms = (left.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(left.count)).squareRoot()
        return 20 * log10(rms * 2.0.squareRoot() / 0.5)
    }

    @Test func aStationsBandPassesFlatFrom441To48kHz() throws {
        for hz in [50.0, 1000, 5000, 10000, 15000] {
            let gain = try Self.gainDB(hz, from: 44100, to: 48000)
            print("44.1 -> 48 kHz: \(Int(hz)) Hz at \(String(format: "%+.3f", gain)) dB")
            #expect(abs(gain) <= 0.1, "\(hz) Hz came out at \(gain) dB")
        }
        // The edge of an MP3's 128 kb/s band (its encoder cuts at 16-17 kHz): within 1 dB.
        let edge = try Self.gainDB(17000, from: 44100, to: 48000)
        print("44.1 -> 48 kHz: 17000 Hz at \(String(format: "%+.3f", edge)) dB")
        #expect(abs(edge) <= 1, "17 kHz came out at \(edge) dB")
    }

    /// Raising the rate makes images of each tone at the input rate minus it (44.1 - 15 = 29.1
    /// kHz, heard folded at 48 - 29.1 = 18.9 kHz): the filter keeps them 80 dB down; and nothing
    /// else in the audible band comes near.
    @Test func imagesOfA15kHzToneStay80dBDown() throws {
        let output = try Self.convert(Self.tone(15000, rate: 44100, seconds: 2), from: 44100, to: 48000)
        let size = 8192
        let power = Spectrum.welch(Self.channel(output, 0, skipping: 4800), size: size, deep: true)
        let bin = { (hz: Double) in Int((hz * Double(size) / 48000).rounded()) }
        let tone = power[(bin(15000) - 7)...(bin(15000) + 7)].reduce(0, +)
        let image = power[(bin(18900) - 7)...(bin(18900) + 7)].reduce(0, +)
        let imageDB = 10 * log10(image / tone)
        // The loudest anything else is, bin by bin, from 20 Hz to 20 kHz away from the tone.
        let others = (bin(20)...bin(20000)).filter { abs($0 - bin(15000)) > 7 }.map { power[$0] }.max() ?? 0
        let othersDB = 10 * log10(others / tone)
        let figures = (String(format: "%.1f", imageDB), String(format: "%.1f", othersDB))
        print("15 kHz tone, 44.1 -> 48 kHz: its image at 18.9 kHz \(figures.0) dB, anything else \(figures.1) dB")
        #expect(imageDB <= -80)
        #expect(othersDB <= -80)
    }

    /// A station's rates other than 44.1 kHz: 22.05 (an HLS segment's core rate), 32, and 48 to
    /// 44.1 (lowering the rate, with a longer filter).
    @Test func otherRatesPassATone() throws {
        for (from, to) in [(22050, 48000), (32000, 48000), (24000, 48000), (48000, 44100), (96000, 48000)] {
            let gain = try Self.gainDB(1000, from: from, to: to)
            print("\(from) -> \(to): 1 kHz at \(String(format: "%+.3f", gain)) dB")
            #expect(abs(gain) <= 0.1, "\(from) -> \(to): \(gain) dB")
            // As many frames as the ratio gives, less the filter's half-length held back.
            let out = try Self.convert(Self.tone(1000, rate: from), from: from, to: to).count / 2
            let expected = Int(1.5 * Double(to))
            #expect(out <= expected && out >= expected - 256 * to / from, "\(from) -> \(to): \(out) frames for \(expected)")
        }
    }

    @Test func blocksOfAnySizeGiveTheSameSamples() throws {
        let input = Self.tone(997, rate: 44100, seconds: 1)
        let whole = try Self.convert(input, from: 44100, to: 48000)
        let resampler = try #require(PolyphaseResampler(from: 44100, to: 48000))
        // Odd sizes and whole chunks, a block of one frame, one longer than the resampler's chunk.
        let sizes = [1, 4999, 17, 2048, 333, 4096, 9000, 7, 1024]
        var pieces: [Float] = []
        var done = 0, turn = 0
        while done < input.count / 2 {
            let frames = min(sizes[turn % sizes.count], input.count / 2 - done)
            turn += 1
            var output = [Float](repeating: 0, count: 2 * resampler.outputCapacity(forInput: frames))
            let written = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer {
                    resampler.process(source.baseAddress! + 2 * done, count: frames, into: $0.baseAddress!,
                                      capacity: resampler.outputCapacity(forInput: frames)).written
                }
            }
            pieces += output.prefix(2 * written)
            done += frames
        }
        #expect(pieces.count == whole.count)
        #expect(pieces == whole)
    }

    /// A ratio with no small terms (a stream that says 44 056 Hz) and a steep fall go to libsoxr.
    @Test func oddRatiosFallBackToLibsoxr() {
        #expect(PolyphaseResampler(from: 44056, to: 48000) == nil)
        #expect(PolyphaseResampler(from: 441_000, to: 48000) == nil)
        #expect(PolyphaseResampler.make(from: 44056, to: 48000) is Resampler)
        #expect(PolyphaseResampler.make(from: 44100, to: 48000) is PolyphaseResampler)
        #expect(PolyphaseResampler(from: 0, to: 48000) == nil)
    }
}
