import Logging
import NoiseClockCore
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Issue 31, finding 9: 500 files with 240-byte names made `~/sounds` 1.55 MB. `sounds_dir` is
/// bounded: at most 200 recordings (in file-name order; the rest skipped and named in the log),
/// display names cut at 64 Unicode scalars.
@Suite struct SoundsFolderBoundsTests {
    /// `count` short WAVs named like the attack's: a distinct ASCII start, then control
    /// characters (JSON escapes each to six bytes, the worst case) to 240 bytes.
    static func folder(count: Int) -> (directory: String, names: [String]) {
        let directory = TestSupport.makeTemporaryDirectory()
        let names = (0..<count).map { String(format: "s%03d ", $0) + String(repeating: "\u{1}", count: 231) + ".wav" }
        let tone = (0..<480).map { Float(0.1 * sin(Double($0) / 10)) }
        for name in names { SoundFileTests.write(directory + "/" + name, rate: 48000, channels: 1, tone, pcm16: true) }
        return (directory, names)
    }

    static func remove(_ directory: String, _ names: [String]) {
        for name in names { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    @Test func atMost200RecordingsWithNamesCutAt64ScalarsAndTheRestLogged() throws {
        let (directory, names) = Self.folder(count: 230)
        defer { Self.remove(directory, names) }
        #expect(names.allSatisfy { $0.utf8.count == 240 })
        let log = LogCapture()
        let logger = log.logger(label: "test.sounds")
        let library = try SoundLibrary.load(
            catalogFile: TestSupport.catalogFile, soundsDirectory: directory, sampleRate: 48000, logger: logger
        )
        library.waitForLoudness()
        #expect(library.customSounds.count == SoundLibrary.maximumCustomSounds)
        // The first 200 in file-name order.
        #expect(Set(library.customSounds.values.map(\.path)) == Set(names.sorted().prefix(200).map { directory + "/" + $0 }))
        for custom in library.customSounds.values {
            #expect(custom.name.unicodeScalars.count == SoundLibrary.maximumNameLength, "\(custom.name)")
            #expect(custom.name.hasSuffix("…"))
        }
        let skipped = log.lines.filter { $0.contains("the rest are skipped") }
        #expect(skipped.count == 1, "\(skipped)")
        #expect(skipped.first?.contains("skipped=30") == true)
        #expect(skipped.first?.contains("s200") == true && skipped.first?.contains("s219") == true)
        #expect(skipped.first?.contains("and 10 more") == true)
        // The whole ~/sounds payload stays small enough for every stream and broker.
        let bytes = library.catalog.json.serialized.utf8.count
        #expect(bytes < 240_000, "\(bytes) bytes")
        print("sounds bounds: 230 files with 240-byte names -> \(library.customSounds.count) listed, ~/sounds \(bytes) bytes")
    }

    @Test func namesAreCutOnScalarsNotBytesOrClusters() {
        #expect(SoundLibrary.displayName("heavy rain.flac") == "heavy rain")
        #expect(SoundLibrary.displayName(String(repeating: "a", count: 64) + ".wav") == String(repeating: "a", count: 64))
        let long = SoundLibrary.displayName(String(repeating: "a", count: 65) + ".wav")
        #expect(long == String(repeating: "a", count: 63) + "…")
        // One grapheme cluster of many scalars (a ZWJ chain) is cut too.
        let chain = String(repeating: "\u{1F468}\u{200D}", count: 50)
        #expect(SoundLibrary.boundedName(chain).unicodeScalars.count == 64)
    }
}
