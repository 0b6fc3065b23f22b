import CSndFile
import Logging
import NoiseClockCore
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Custom sounds: decoded through libsndfile, resampled, looped without a seam, bad files skipped.
@Suite struct SoundFileTests {
    /// Writes a mono 16-bit WAV of `seconds` of a sine at `frequency`.
    static func writeSine(_ path: String, rate: Int32, seconds: Double, frequency: Double) {
        var info = SF_INFO()
        info.samplerate = rate
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let file = sf_open(path, Int32(SFM_WRITE), &info)!
        let frames = Int(seconds * Double(rate))
        var samples = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
        _ = samples.withUnsafeMutableBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(frames)) }
        sf_close(file)
    }

    @Test func customFilesJoinTheCatalogAndBadOnesAreSkipped() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        Self.writeSine(directory + "/Soft Hum.wav", rate: 44100, seconds: 2, frequency: 220)
        TestSupport.write("this is not audio", to: directory + "/broken.mp3")
        TestSupport.write("", to: directory + "/brown.wav")  // would shadow a built-in id
        let library = try TestSupport.library(soundsDirectory: directory)
        #expect(library.catalog.noise.last == SoundCatalog.Entry(id: "soft_hum", name: "Soft Hum", category: "custom"))
        #expect(library.catalog.hasAlarm("soft_hum"))
        #expect(!library.catalog.hasSound("broken"))
        #expect(library.catalog.noise.filter { $0.id == "brown" }.count == 1)
        #expect(library.makeSource("soft_hum") != nil)
    }

    @Test func decodedFilesAreResampledNormalisedAndLoopSeamlessly() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let path = directory + "/hum.wav"
        Self.writeSine(path, rate: 44100, seconds: 2, frequency: 220)
        let clip = try SoundFileDecoder.decode(path: path, sampleRate: 48000)
        // 2 s at 48 kHz, less the 0.5 s crossfade folded into the start.
        #expect(clip.frames == 96000 - 24000)
        let (left, right) = renderChannels(LoopSource(clip), frames: clip.frames * 3)
        #expect(left == right)
        // Brought to the noises' loudness: A-weighted, like theirs (a 220 Hz hum needs ~11 dB
        // more RMS than white noise to sound as loud).
        let loudness = AWeightedLevel.decibels(left, right, sampleRate: 48000)
        #expect(abs(loudness - decibels(Double(SoundLevel.noiseLoudness))) < 0.5, "loudness \(loudness) dB(A)")
        // Across the loop point the wave continues: no step bigger than the sine's own slope.
        let maxStep = 2 * Double.pi * 220 / 48000 * Double(left.map { abs($0) }.max()!) * 1.1
        let seams = [clip.frames, 2 * clip.frames]
        for seam in seams { #expect(Double(abs(left[seam] - left[seam - 1])) <= maxStep) }
    }

    /// Recorded noise of any colour, at any level, plays as loud as the built-in noises: the
    /// decoder's A-weighting filter agrees with the IEC curve applied to the spectrum.
    @Test(arguments: ["white", "brown"])
    func customNoiseIsMatchedInLoudness(colour: String) throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let path = directory + "/recorded.wav"
        let source: any SoundSource = colour == "white" ? WhiteNoise(seed: 7) : BrownNoise(sampleRate: 44100, seed: 8)
        var (left, right) = renderChannels(source, frames: 44100 * 10)
        var info = SF_INFO()
        info.samplerate = 44100
        info.channels = 2
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        let file = sf_open(path, Int32(SFM_WRITE), &info)!
        // 0.3×: recorded at another level than ours.
        var interleaved = (0..<left.count).flatMap { [left[$0] * 0.3, right[$0] * 0.3] }
        _ = interleaved.withUnsafeMutableBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(left.count)) }
        sf_close(file)
        let clip = try SoundFileDecoder.decode(path: path, sampleRate: 48000)
        (left, right) = renderChannels(LoopSource(clip), frames: clip.frames)
        let loudness = AWeightedLevel.decibels(left, right, sampleRate: 48000)
        #expect(abs(loudness - decibels(Double(SoundLevel.noiseLoudness))) < 0.5, "\(colour) file at \(loudness) dB(A)")
    }

    @Test func undecodableFileThrows() {
        let directory = TestSupport.makeTemporaryDirectory()
        TestSupport.write("RIFF nonsense", to: directory + "/x.wav")
        #expect(throws: SoundFileDecoder.Failure.self) { try SoundFileDecoder.decode(path: directory + "/x.wav", sampleRate: 48000) }
    }
}
