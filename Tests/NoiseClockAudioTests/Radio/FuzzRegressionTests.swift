import Foundation
import Testing
@testable import NoiseClockAudio

/// What the radio's fuzz targets found (Fuzz/README, docs/reliability.md "Fuzzed network
/// parsers"), each replayed from the input that showed it (Tests/Fixtures/fuzz, as libFuzzer
/// wrote it: the target's control bytes, then the body) through the player's own path.
struct FuzzRegressionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz").path

    /// A fixture's body: past FuzzPlayer's three control bytes (type, ICY interval, split).
    static func playerBody(_ name: String) throws -> [UInt8] {
        let data = try #require(FileManager.default.contents(atPath: "\(fixtures)/\(name)"), "no fixture \(name)")
        return Array(data.dropFirst(3))
    }

    /// FuzzPlayer, 1,189 bytes (406 minimised): an MP3 stream whose frames change format (libmpg123's
    /// "Frankenstein stream"). libmpg123 hands out the frames decoded before the change together
    /// with MPG123_NEW_FORMAT; they were converted with the new channel count, so a block of
    /// stereo frames went out as mono (or half a frame as stereo): audio at the wrong speed, and a
    /// block that is not whole frames. Each block must be whole frames of the format it was decoded in.
    @Test func anMP3FormatChangeKeepsEachBlockInItsOwnFormat() throws {
        let library = try #require(try? StreamLibrary.shared.get())
        let body = try Self.playerBody("player-mp3-format-change")
        let reader = StreamBodyReader(contentType: "audio/mpeg", library: library)
        var blocks: [(samples: Int, channels: Int)] = []
        _ = body.withUnsafeBytes { reader.feed($0, frames: { blocks.append(($0.count, $1)) }, title: { _ in }) }
        #expect(!blocks.isEmpty, "the stream decoded nothing")
        for block in blocks {
            #expect(block.channels > 0 && block.samples % block.channels == 0, "a block of \(block.samples) samples in \(block.channels) channels")
        }
    }

    /// FuzzFraming's check on tags: Vorbis, Opus and FLAC titles kept DEL and the C1 controls
    /// (only below U+0020 was cleaned), which ICY titles lose; `~/noise` publishes the title as it is.
    @Test func aTagTitleLosesEveryControlCharacter() throws {
        var block = Data([7, 0, 0, 0]) + Data("ffmpeg!".utf8) + Data([2, 0, 0, 0])
        for entry in ["ARTIST=Miles Davis", "TITLE=So What\u{7F}\u{85}\u{9B}\u{1}"] {
            block += Data([UInt8(entry.utf8.count), 0, 0, 0]) + Data(entry.utf8)
        }
        let title = block.withUnsafeBytes { VorbisComment.title($0) }
        #expect(title == "Miles Davis - So What")
    }
}
