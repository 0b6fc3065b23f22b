import Testing
@testable import NoiseClockAudio

/// The HLS reader's pure parts: the playlist (segments with their sequence numbers, target
/// duration, `#EXTINF` titles, a master playlist's variants, the end), references made absolute,
/// and the transport-stream demuxer on packets built here (PAT → PMT → ADTS AAC's PES payload).
struct HLSPlaylistTests {
    @Test func aLivePlaylistHasItsSegmentsNumberedFromTheMediaSequence() throws {
        let playlist = try #require(HLSPlaylist("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:41
            #EXTINF:2.000000,
            live41.ts
            #EXTINF:1.960000,Miles Davis - So What
            live42.ts
            """))
        #expect(playlist.targetDuration == 2 && playlist.mediaSequence == 41 && !playlist.ended)
        #expect(playlist.segments == [
            HLSPlaylist.Segment(sequence: 41, uri: "live41.ts", duration: 2, title: nil),
            HLSPlaylist.Segment(sequence: 42, uri: "live42.ts", duration: 1.96, title: "Miles Davis - So What"),
        ])
        #expect(HLSPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.aac\n#EXT-X-ENDLIST\n")?.ended == true)
        #expect(HLSPlaylist("[playlist]\nFile1=http://a/b\n") == nil)
    }

    @Test func aMasterPlaylistListsItsVariants() throws {
        let playlist = try #require(HLSPlaylist("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5,mp4a.40.2"
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            high/index.m3u8
            """))
        #expect(playlist.variants == [
            HLSPlaylist.Variant(uri: "low/index.m3u8", bandwidth: 64000, codecs: "mp4a.40.5,mp4a.40.2"),
            HLSPlaylist.Variant(uri: "high/index.m3u8", bandwidth: 128_000, codecs: "mp4a.40.2"),
        ])
        #expect(playlist.segments.isEmpty)
    }

    @Test(arguments: [
        ("seg1.ts", "https://radio.example/live/index.m3u8?token=1", "https://radio.example/live/seg1.ts"),
        ("/other/seg1.ts", "https://radio.example:8443/live/index.m3u8", "https://radio.example:8443/other/seg1.ts"),
        ("//cdn.example/a.ts", "https://radio.example/live/index.m3u8", "https://cdn.example/a.ts"),
        ("http://cdn.example/a.ts", "https://radio.example/live/index.m3u8", "http://cdn.example/a.ts"),
        ("a.ts", "http://radio.example", "http://radio.example/a.ts"),
    ])
    func referencesAreResolvedAgainstThePlaylist(reference: String, base: String, expected: String) {
        #expect(HLSPlaylist.resolve(reference, against: base) == expected)
    }

    @Test func formatsAreToldByTypeThenByTheirFirstBytes() {
        #expect(StreamFormat.from(contentType: "audio/aacp") == .aac)
        #expect(StreamFormat.from(contentType: "application/ogg; charset=binary") == .ogg)
        #expect(StreamFormat.from(contentType: "audio/flac") == .flac)
        #expect(StreamFormat.from(contentType: "text/html") == nil)
        #expect(StreamFormat.sniff(Array("OggS\0\u{2}".utf8)) == .ogg)
        #expect(StreamFormat.sniff(Array("fLaC\0".utf8)) == .flac)
        #expect(StreamFormat.sniff([0x12, 0xFF, 0xF1, 0x50, 0x80]) == .aac)  // ADTS: layer 0
        #expect(StreamFormat.sniff([0xFF, 0xFB, 0x90, 0x64]) == .mp3)  // MPEG-1 layer 3
        #expect(StreamFormat.sniff(Array("<html>".utf8)) == nil)
    }

    @Test func aVorbisCommentGivesArtistAndTitle() {
        func block(_ entries: [String]) -> [UInt8] {
            func length(_ n: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(n).littleEndian, Array.init) }
            var bytes = length(6) + Array("vendor".utf8) + length(entries.count)
            for entry in entries { bytes += length(entry.utf8.count) + Array(entry.utf8) }
            return bytes
        }
        #expect(block(["ARTIST=Miles Davis", "title=So What"]).withUnsafeBytes(VorbisComment.title) == "Miles Davis - So What")
        #expect(block(["TITLE=So What"]).withUnsafeBytes(VorbisComment.title) == "So What")
        #expect(block(["ARTIST=Miles Davis"]).withUnsafeBytes(VorbisComment.title) == nil)
        // A count past the bytes: what is there is read, nothing more.
        #expect(Array(block(["TITLE=x"]).dropLast(3)).withUnsafeBytes(VorbisComment.title) == nil)
    }

    @Test func theDemuxerFindsTheAudioStreamAndStripsThePESHeaders() {
        func packet(pid: Int, start: Bool, _ payload: [UInt8]) -> [UInt8] {
            let header: [UInt8] = [0x47, UInt8(start ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10]
            return header + payload + [UInt8](repeating: 0xFF, count: 184 - payload.count)
        }
        // PAT: program 1 → PMT on PID 0x1000; PMT: stream type 0x0F (ADTS AAC) on PID 0x101.
        let pat: [UInt8] = [0, 0x00, 0xB0, 13, 0, 1, 0xC1, 0, 0, 0, 1, 0xF0, 0x00, 0, 0, 0, 0]
        let pmt: [UInt8] = [0, 0x02, 0xB0, 18, 0, 1, 0xC1, 0, 0, 0xE1, 0x01, 0xF0, 0, 0x0F, 0xE1, 0x01, 0xF0, 0, 0, 0, 0, 0]
        let pes: [UInt8] = [0, 0, 1, 0xC0, 0, 0, 0x80, 0x80, 5, 1, 2, 3, 4, 5] + Array("audio-one".utf8)
        let stream = packet(pid: 0, start: true, pat) + packet(pid: 0x1000, start: true, pmt) + packet(pid: 0x101, start: true, pes)
            + packet(pid: 0x101, start: false, Array("audio-two".utf8))
        let demuxer = MPEGTSDemuxer()
        var audio: [UInt8] = []
        // Fed in uneven pieces, as a connection delivers it.
        var ok = true
        for chunk in stride(from: 0, to: stream.count, by: 100) {
            ok = ok && stream[chunk..<min(stream.count, chunk + 100)].withUnsafeBytes { demuxer.feed($0) { audio += $0 } }
        }
        #expect(ok && demuxer.format == .aac && demuxer.audioPID == 0x101)
        let text = String(decoding: audio, as: UTF8.self)
        #expect(text.hasPrefix("audio-one") && text.contains("audio-two"), "\(text.prefix(40))")
        #expect([UInt8](repeating: 0x20, count: 1000).withUnsafeBytes { MPEGTSDemuxer().feed($0) { _ in } } == false)
    }
}
