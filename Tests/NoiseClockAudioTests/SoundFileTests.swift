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
        write(path, rate: rate, channels: 1, (0..<frames).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) },
            pcm16: pcm16)
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

    /// A recording of noise crosses its loop seam without a click, and with no step larger than
    /// the steady sound's own (issue 19): three passes of brown noise recorded at 44.1 kHz, played
    /// at 48 kHz. A click (tail and head joined without the fade) would be a jump of the noise's
    /// own size, ten times that. The seam keeps the equal-power level: no 3 dB dip. The first
    /// tenth of a second is the rate converter's warm-up from silence, not steady sound.
    @Test func aNoiseLoopHasNoClickAtItsSeam() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let (left, right) = renderChannels(BrownNoise(sampleRate: 44100, seed: 11), frames: 44100 * 4)
        Self.write(directory + "/brook.wav", rate: 44100, channels: 2, (0..<left.count).flatMap { [left[$0], right[$0]] })
        let library = try Self.library(directory)
        let loop = 48000 * 4 - 24000
        let played = Self.render(library, "brook", frames: loop * 3)
        // Each seam: the crossfade, and the block after it that carries the converter's delay out.
        let seams = [loop, 2 * loop].map { $0..<($0 + 24000 + 4096) }
        var steady: Float = 0, seam: Float = 0
        var seamPower = 0.0, steadyPower = 0.0, seamCount = 0, steadyCount = 0
        for i in 4800..<played.left.count {
            let step = abs(played.left[i] - played.left[i - 1])
            let power = Double(played.left[i] * played.left[i])
            if seams.contains(where: { $0.contains(i) }) {
                seam = max(seam, step)
                (seamPower, seamCount) = (seamPower + power, seamCount + 1)
            } else {
                steady = max(steady, step)
                (steadyPower, steadyCount) = (steadyPower + power, steadyCount + 1)
            }
        }
        #expect(seam <= steady, "largest step \(seam) across the seams, \(steady) in the steady sound")
        let level = 10 * log10((seamPower / Double(seamCount)) / (steadyPower / Double(steadyCount)))
        #expect(abs(level) < 1.5, "the seams are \(level) dB from the steady level")
    }

    /// The case an equal-power crossfade alone gets wrong: a tail and a head that rise together at
    /// the recording's largest step (a 100 Hz triangle, every step the same size, whose tail and
    /// head are in phase). The crossfade steps √2 × that mid-fade; what plays never steps further
    /// than the recording, into the seam, through it and out of it.
    @Test func aSeamNeverStepsFurtherThanTheRecording() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        // Steps of exactly 1/512 (exact in float), a period of 480 frames: the tail (from frame
        // 120000) and the head are the same wave.
        let frames = 48000 * 3, fade = 24000, loop = frames - fade
        let triangle = (0..<frames).map { Float(abs($0 % 480 - 240) - 120) / 512 }
        Self.write(directory + "/triangle.wav", rate: 48000, channels: 1, triangle)
        let crossfade = (0..<fade).map { i -> Float in
            let x = Float(i) / Float(fade) * .pi / 2
            return triangle[i] * sinf(x) + triangle[loop + i] * cosf(x)
        }
        let crossfadeStep = zip(crossfade.dropFirst(), crossfade).map { abs($0 - $1) }.max()!
        #expect(crossfadeStep > 1.4 / 512, "the crossfade alone steps \(crossfadeStep * 512) × the recording's step")
        let library = try Self.library(directory)
        let played = Self.render(library, "triangle", frames: loop * 3).left
        let steps = zip(played.dropFirst(), played).map { abs($0 - $1) }
        let steady = steps[1000..<(loop - 1000)].max()!
        let largest = steps[1000...].max()!
        #expect(largest <= steady, "largest step \(largest), \(steady) in the steady sound")
    }

    /// The seam, sample for sample (48 kHz, so no rate conversion in between): the tail fades
    /// out over the head fading in, then the file goes on from there. Where that crossfade would
    /// step further than the steady sound did (after the 0.1 s warm-up), the seam steps exactly
    /// that far instead (the limiter at work): a few percent of the samples, a fraction of a
    /// step from the crossfade.
    @Test func theSeamIsTheTailCrossfadedIntoTheHead() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let (left, _) = renderChannels(BrownNoise(sampleRate: 48000, seed: 12), frames: 48000 * 3)
        Self.write(directory + "/brook.wav", rate: 48000, channels: 1, left)
        let library = try Self.library(directory)
        let fade = 24000, loop = 48000 * 3 - fade
        let played = Self.render(library, "brook", frames: loop * 2 + 1000)
        let gain = played.left[1000] / left[1000]
        let limit = (4801..<loop).map { abs(played.left[$0] - played.left[$0 - 1]) }.max()!
        var worst: Float = 0, worstLimited: Float = 0, limited = 0
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
            let difference = abs(played.left[i] - expected * gain)
            if difference >= 1e-5, i >= loop, abs(abs(played.left[i] - played.left[i - 1]) - limit) < 1e-6 {
                limited += 1
                worstLimited = max(worstLimited, difference)
            } else {
                worst = max(worst, difference)
            }
        }
        #expect(worst < 1e-5, "largest difference \(worst)")
        // Here 515 samples (2 %), at most 0.26 of a step from the crossfade.
        #expect(limited < fade / 20, "\(limited) samples limited")
        #expect(worstLimited < limit / 2, "a limited sample \(worstLimited / limit) steps from the crossfade")
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
