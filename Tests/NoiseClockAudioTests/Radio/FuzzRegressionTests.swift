import CStream
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

    /// Seen while writing FuzzPlayer (what the Ogg FLAC path trusts), written by hand (43 bytes) and
    /// replayed by FuzzPlayer, which reaches it once it makes Ogg CRCs right: an Ogg FLAC stream
    /// whose first page holds two packets, the first 5 bytes long. The page passed the FLAC
    /// mapping's check (13 bytes, `\x7FFLAC`), and its first packet was cut past the 9-byte
    /// mapping header: a range trap in the station-player thread, which ended the node. It is
    /// `undecodable` now.
    @Test func anOggFLACFirstPacketShorterThanItsHeaderIsUndecodable() throws {
        let library = try #require(try? StreamLibrary.shared.get())
        let body = try Self.playerBody("player-ogg-flac-short-packet")
        let reader = StreamBodyReader(contentType: "audio/ogg", library: library)
        let going = body.withUnsafeBytes { reader.feed($0, frames: { _, _ in }, title: { _ in }) }
        #expect(!going && reader.verdict == .undecodable)
    }

    /// FuzzPlayer, once it made Ogg CRCs right (2,813 bytes: the Vorbis seed, mutated): headers
    /// libvorbis reads but cannot set up a decoder for (`vorbis_synthesis_init` refuses them). The
    /// decoder then cleared a `vorbis_block` it had never set up when it went: a SEGV under ASan,
    /// which fills new memory with 0xBE, and with glibc whatever the block's memory held before.
    /// Here it holds what ASan's would: this thread's freed chunks of that size are filled first
    /// (malloc hands them out again), so the old code crashes every time.
    @Test func vorbisHeadersLibvorbisRefusesLeaveNothingToClear() throws {
        let library = try #require(try? StreamLibrary.shared.get())
        let body = try Self.playerBody("player-vorbis-synthesis-init-fails")
        Self.leaveFreedChunksFilled(size: MemoryLayout<vorbis_block>.size)
        var reader: StreamBodyReader? = StreamBodyReader(contentType: "audio/ogg", library: library)
        let going = body.withUnsafeBytes { reader!.feed($0, frames: { _, _ in }, title: { _ in }) }
        #expect(!going && reader!.verdict == .undecodable)
        reader = nil
    }

    /// Frees 64 chunks of `size` bytes filled with 0xBE: the next allocations of that size on
    /// this thread (no await in between) get them back, their bytes past malloc's own 16 intact.
    static func leaveFreedChunksFilled(size: Int) {
        let chunks = (0..<64).map { _ in UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16) }
        for chunk in chunks { chunk.initializeMemory(as: UInt8.self, repeating: 0xBE, count: size) }
        for chunk in chunks.reversed() { chunk.deallocate() }
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
