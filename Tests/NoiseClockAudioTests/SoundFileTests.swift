import CSndFile
import Logging
import NoiseClockCore
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Custom sounds: streamed from disk through libsndfile, converted with libsoxr, brought to the
/// noises' loudness (EBU R128), looped without a seam, bad files skipped.
@Suite struct SoundFileTests {
    /// Writes interleaved float samples as a WAV (32-bit float unless `pcm16`).
    static func write(_ path: String, rate: Int32, channels: Int32, _ samples: [Float], pcm16: Bool = false) {
        var info = SF_INFO()
        info.samplerate = rate
        info.channels = channels
        info.format = Int32(SF_FORMAT_WAV) | Int32(pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_FLOAT)
        let file = sf_open(path, Int32(SFM_WRITE), &info)!
        var samples = samples
        _ = samples.withUnsafeMutableBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t($0.count / Int(channels))) }
        sf_close(file)
    }

    /// Writes a mono WAV of `seconds` of a sine at `frequency`.
    static func writeSine(_ path: String, rate: Int32, seconds: Double, frequency: Double, pcm16: Bool = true) {
        let frames = Int(seconds * Double(rate))
        write(path, rate: rate, channels: 1, (0..<frames).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }, pcm16: pcm16)
    }

    /// A library over `directory`, its files' loudness measured.
    static func library(_ directory: String) throws -> SoundLibrary {
        let library = try TestSupport.library(soundsDirectory: directory)
        library.waitForLoudness()
        return library
    }

    static func render(_ library: SoundLibrary, _ id: String, frames: Int) -> (left: [Float], right: [Float]) {
        renderChannels(library.makeSource(id, waitsForDisk: true)!, frames: frames)
    }

    @Test func customFilesJoinTheCatalogAndBadOnesAreSkipped() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        Self.writeSine(directory + "/Soft Hum.wav", rate: 44100, seconds: 2, frequency: 220)
        TestSupport.write("this is not audio", to: directory + "/broken.mp3")
        TestSupport.write("", to: directory + "/brown.wav")  // would shadow a built-in id
        let library = try Self.library(directory)
        #expect(library.catalog.noise.last == SoundCatalog.Entry(
            id: "soft_hum", name: "Soft Hum", category: "custom", file: .init(seconds: 2, format: "WAV (Microsoft) (Signed 16 bit PCM)")
        ))
        #expect(library.catalog.hasAlarm("soft_hum"))
        #expect(!library.catalog.hasSound("broken"))
        #expect(library.catalog.noise.filter { $0.id == "brown" }.count == 1)
        #expect(library.makeSource("soft_hum") != nil)
        let hum = try #require(library.customSounds["soft_hum"])
        #expect(hum.seconds == 2 && hum.sampleRate == 44100 && hum.channels == 1 && hum.format.hasPrefix("WAV"))
    }

    @Test func streamedFilesAreResampledNormalisedAndLoopSeamlessly() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        Self.writeSine(directory + "/hum.wav", rate: 44100, seconds: 2, frequency: 220)
        let library = try Self.library(directory)
        // The loop: 2 s at 48 kHz less the 0.5 s crossfade of the tail into the head.
        let loop = 96000 - 24000
        let (left, right) = Self.render(library, "hum", frames: loop * 3 + 4800)
        #expect(left == right)
        let loudness = KWeightedLevel.lufs(Array(left[0..<loop]), Array(right[0..<loop]))
        #expect(abs(loudness - SoundLevel.noiseLUFS) < 0.5, "loudness \(loudness) LUFS")
        // Across the loop point the wave continues: no step bigger than the sine's own slope.
        let maxStep = 2 * Double.pi * 220 / 48000 * Double(left.map { abs($0) }.max()!) * 1.1
        for seam in [loop, 2 * loop, 3 * loop] { #expect(Double(abs(left[seam] - left[seam - 1])) <= maxStep) }
    }

    /// A recording of noise crosses its loop seam without a click. Three passes of brown noise
    /// recorded at 44.1 kHz, played at 48 kHz. In the equal-power crossfade (right for an
    /// unrelated tail and head: the level stays) a step is the head's step and the tail's at
    /// gains summing to at most √2, so that is the bound against the steady sound's largest step;
    /// a click (tail and head joined without the fade) would be a jump of the noise's own size,
    /// ten times that. The seam's construction itself is checked sample for sample below.
    @Test func aNoiseLoopHasNoClickAtItsSeam() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let (left, right) = renderChannels(BrownNoise(sampleRate: 44100, seed: 11), frames: 44100 * 4)
        Self.write(directory + "/brook.wav", rate: 44100, channels: 2, (0..<left.count).flatMap { [left[$0], right[$0]] })
        let library = try Self.library(directory)
        let loop = 48000 * 4 - 24000
        let played = Self.render(library, "brook", frames: loop * 3)
        let seams = [loop, 2 * loop].map { ($0 - 24000)..<($0 + 24000) }
        var steady: Float = 0, seam: Float = 0
        for i in 4800..<played.left.count {
            let step = abs(played.left[i] - played.left[i - 1])
            if seams.contains(where: { $0.contains(i) }) { seam = max(seam, step) } else { steady = max(steady, step) }
        }
        #expect(seam <= steady * Float(2).squareRoot(), "largest step \(seam) across the seams, \(steady) in the steady sound")
    }

    /// The seam, sample for sample (48 kHz, so no rate conversion in between): the tail fades
    /// out over the head fading in, then the file goes on from there.
    @Test func theSeamIsTheTailCrossfadedIntoTheHead() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let (left, _) = renderChannels(BrownNoise(sampleRate: 48000, seed: 12), frames: 48000 * 3)
        Self.write(directory + "/brook.wav", rate: 48000, channels: 1, left)
        let library = try Self.library(directory)
        let fade = 24000, loop = 48000 * 3 - fade
        let played = Self.render(library, "brook", frames: loop * 2 + 1000)
        let gain = played.left[1000] / left[1000]
        var worst: Float = 0
        for i in 0..<(loop + fade + 1000) {
            let expected: Float
            if i < loop {
                expected = left[i]
            } else if i < loop + fade {
                let x = Float(i - loop) / Float(fade) * .pi / 2
                expected = left[i - loop] * sinf(x) + left[i] * cosf(x)
            } else {
                expected = left[i - loop]
            }
            worst = max(worst, abs(played.left[i] - expected * gain))
        }
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    /// The acceptance figure for rate conversion: a 10 kHz sine recorded at 44.1 kHz plays at
    /// 48 kHz with every other component at least 80 dB below it (linear interpolation: 21 dB).
    @Test func aSineConvertedToTheOutputRateStaysPure() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        Self.writeSine(directory + "/tone.wav", rate: 44100, seconds: 10, frequency: 10000, pcm16: false)
        let library = try Self.library(directory)
        // Eight seconds: all before the loop's seam (a seam would blend two phases of the tone).
        let (left, _) = Self.render(library, "tone", frames: 48000 * 8)
        let size = 32768
        let power = Spectrum.welch(Array(left[4800...]), size: size, deep: true)
        let toneBin = Int((10000.0 / 48000 * Double(size)).rounded())
        let tone = power[(toneBin - 7)...(toneBin + 7)].max()!
        var worst = 0.0
        for (k, p) in power.enumerated() where abs(k - toneBin) > 9 && k > 9 { worst = max(worst, p) }
        let below = 10 * log10(tone / worst)
        let worstBin = power.indices.filter { abs($0 - toneBin) > 9 && $0 > 9 }.max { power[$0] < power[$1] }!
        #expect(below >= 80, "the largest other component (\(Double(worstBin) * 48000 / Double(size)) Hz) is \(below) dB below the tone")
    }

    /// Recorded noise of any colour, at any level, plays as loud as the built-in noises in
    /// EBU R128 terms; the built-in pink noise is what `noiseLUFS` says.
    @Test(arguments: ["white", "brown"])
    func customNoiseIsMatchedInLoudness(colour: String) throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let source: any SoundSource = colour == "white" ? WhiteNoise(seed: 7) : BrownNoise(sampleRate: 48000, seed: 8)
        let (left, right) = renderChannels(source, frames: 48000 * 10)
        // 0.3×: recorded at another level than ours.
        Self.write(directory + "/recorded.wav", rate: 48000, channels: 2, (0..<left.count).flatMap { [left[$0] * 0.3, right[$0] * 0.3] })
        let library = try Self.library(directory)
        let played = Self.render(library, "recorded", frames: 48000 * 9)
        let loudness = KWeightedLevel.lufs(played.left, played.right)
        #expect(abs(loudness - SoundLevel.noiseLUFS) < 0.5, "\(colour) file at \(loudness) LUFS")
    }

    @Test func theBuiltInPinkNoiseIsAtTheNoiseLoudness() throws {
        let library = try TestSupport.library()
        let (left, right) = renderChannels(library.makeSource("pink")!, frames: 48000 * 20)
        let loudness = KWeightedLevel.lufs(left, right)
        #expect(abs(loudness - SoundLevel.noiseLUFS) < 0.5, "pink noise at \(loudness) LUFS")
    }

    /// Played from disk, sample for sample: late in the file the output is the file at its gain.
    @Test func aFileIsPlayedAsItIsFromDisk() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let (left, right) = renderChannels(WhiteNoise(seed: 3), frames: 48000 * 40)
        Self.write(directory + "/long.wav", rate: 48000, channels: 2, (0..<left.count).flatMap { [left[$0] * 0.2, right[$0] * 0.2] })
        let library = try Self.library(directory)
        let played = Self.render(library, "long", frames: 48000 * 39)
        let at = 48000 * 38
        let correlationLate = correlation(Array(played.left[at..<(at + 48000)]), Array(left[at..<(at + 48000)]))
        #expect(correlationLate >= 0.99, "correlation \(correlationLate)")
    }

    /// The failsafe's ground: a file gone or broken after start cannot be made into a source.
    @Test func aFileGoneOrBrokenAfterStartCannotBePlayed() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        Self.writeSine(directory + "/a.wav", rate: 48000, seconds: 2, frequency: 220)
        Self.writeSine(directory + "/b.wav", rate: 48000, seconds: 2, frequency: 220)
        let library = try Self.library(directory)
        #expect(library.makeSource("a") != nil && library.makeSource("b") != nil)
        unlink(directory + "/a.wav")
        TestSupport.write("RIFF nonsense", to: directory + "/b.wav")
        #expect(library.makeSource("a") == nil)
        #expect(library.makeSource("b") == nil)
    }

    /// The loudness is remembered in the state directory, keyed by path, size and mtime.
    @Test func loudnessIsRememberedAcrossRestarts() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let state = TestSupport.makeTemporaryDirectory()
        Self.writeSine(directory + "/hum.wav", rate: 48000, seconds: 2, frequency: 220)
        let first = try TestSupport.library(soundsDirectory: directory, stateDirectory: state)
        first.waitForLoudness()
        let measured = try #require(first.loudness?.loudness(of: directory + "/hum.wav"))
        let cached = LoudnessStore(stateDirectory: state, logger: Logger(label: "test"))
        #expect(cached.loudness(of: directory + "/hum.wav") == measured)
        // Replaced: another size and time, so the remembered figure no longer applies.
        Self.writeSine(directory + "/hum.wav", rate: 48000, seconds: 3, frequency: 220)
        #expect(cached.loudness(of: directory + "/hum.wav") == nil)
    }
}
