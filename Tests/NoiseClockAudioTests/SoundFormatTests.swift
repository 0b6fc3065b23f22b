import CSndFile
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// The formats docs/ promise, made with this machine's libsndfile and played back through the
/// library: each is offered, names its format, and plays its tone at the noises' loudness.
@Suite struct SoundFormatTests {
    static let formats: [(file: String, format: Int32, expected: String)] = [
        ("tone.wav", Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16), "WAV"),
        ("tone.flac", Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), "FLAC"),
        ("tone.ogg", Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), "OGG"),
        ("tone.opus", Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), "OGG"),
        ("tone.mp3", Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), "MPEG"),
    ]

    /// Three seconds of a 440 Hz tone at 48 kHz, mono, in `format`.
    static func write(_ path: String, format: Int32) throws {
        var info = SF_INFO()
        info.samplerate = 48000
        info.channels = 1
        info.format = format
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw SoundFile.Failure(description: "libsndfile cannot write \(path): \(String(cString: sf_strerror(nil)))")
        }
        var samples = (0..<(48000 * 3)).map { Float(0.4 * sin(2 * Double.pi * 440 * Double($0) / 48000)) }
        _ = samples.withUnsafeMutableBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
        sf_close(file)
    }

    @Test(arguments: formats.map(\.file))
    func eachPromisedFormatPlays(file: String) throws {
        let entry = Self.formats.first { $0.file == file }!
        let directory = TestSupport.makeTemporaryDirectory()
        try Self.write(directory + "/" + file, format: entry.format)
        let library = try SoundFileTests.library(directory)
        let sound = try #require(library.customSounds["tone"], "\(file) is not offered")
        print("\(file): \(sound.format), \(sound.seconds) s")
        #expect(sound.format.uppercased().hasPrefix(entry.expected), "\(file): \(sound.format)")
        #expect(abs(sound.seconds - 3) < 0.1, "\(file): \(sound.seconds) s")
        let (left, _) = SoundFileTests.render(library, "tone", frames: 48000 * 2)
        let size = 16384
        let power = Spectrum.welch(Array(left[4800...]), size: size)
        let peak = power.indices.max { power[$0] < power[$1] }!
        #expect(abs(Double(peak) * 48000 / Double(size) - 440) < 6, "\(file): strongest at bin \(peak)")
    }
}
