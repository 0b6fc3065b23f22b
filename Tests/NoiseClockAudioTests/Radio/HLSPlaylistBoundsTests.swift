import Testing
@testable import NoiseClockAudio

/// Issue 37: a playlist's numbers are bounded before any arithmetic (mqtt-api v1.4, "Streams are
/// bounded"): target duration 1-60 s, `#EXTINF` above 0 and at most 60 s, media sequence 0 to
/// 2^53, at most 10,000 entries; anything else is no playlist (the stream ends `undecodable`),
/// never a trap. Before the bounds, the first case trapped on overflow in the parser.
struct HLSPlaylistBoundsTests {
    static func media(sequence: String = "0", target: String = "2", durations: [String] = ["2", "2"]) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
            + durations.map { "#EXTINF:\($0),\nseg.aac\n" }.joined()
    }

    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "9007199254740993", "-1", "1e3", "twelve", "", "18446744073709551616"])
    func aMediaSequenceOutOfBoundsIsNoPlaylist(_ sequence: String) {
        #expect(HLSPlaylist(Self.media(sequence: sequence)) == nil, "MEDIA-SEQUENCE:\(sequence)")
    }

    @Test(arguments: ["inf", "-inf", "nan", "1e300", "0", "0.5", "61", "-2", "x", "infinity"])
    func aTargetDurationOutOfBoundsIsNoPlaylist(_ target: String) {
        #expect(HLSPlaylist(Self.media(target: target, durations: [])) == nil, "TARGETDURATION:\(target)")
    }

    @Test(arguments: ["inf", "nan", "1e300", "0", "-1", "60.5", "two", ""])
    func aSegmentDurationOutOfBoundsIsNoPlaylist(_ duration: String) {
        #expect(HLSPlaylist(Self.media(durations: ["2", duration])) == nil, "EXTINF:\(duration)")
    }

    @Test func theBoundsThemselvesAreAPlaylist() throws {
        let highest = try #require(HLSPlaylist(Self.media(sequence: "9007199254740992", target: "60", durations: ["60", "0.001"])))
        #expect(highest.mediaSequence == 1 << 53 && highest.targetDuration == 60)
        #expect(highest.segments.map(\.sequence) == [(1 << 53), (1 << 53) + 1])
        #expect(HLSPlaylist(Self.media(sequence: "0", target: "1", durations: ["1"]))?.segments.count == 1)
    }

    @Test func moreThanTenThousandEntriesIsNoPlaylist() {
        #expect(HLSPlaylist(Self.media(durations: Array(repeating: "2", count: 10_000)))?.segments.count == 10_000)
        // Counts, not the playlists, in a failure's message.
        #expect(HLSPlaylist(Self.media(durations: Array(repeating: "2", count: 10_001)))?.segments.count == nil)
        let variants = (0...10_000).map { "#EXT-X-STREAM-INF:BANDWIDTH=\($0)\nv\($0).m3u8\n" }.joined()
        #expect(HLSPlaylist("#EXTM3U\n" + variants)?.variants.count == nil)
    }

    /// m3u and pls take no arithmetic from the server: huge or odd entry numbers are passed over.
    @Test func m3uAndPlsNeverTrapOnTheirNumbers() {
        let pls = "[playlist]\nFile99999999999999999999999=http://a/1\nFile-9223372036854775808=http://a/2\nFile9223372036854775807=http://a/3\n"
            + "Length1=-1\nNumberOfEntries=99999999999999999999\n"
        #expect(StationPlaylist.classify(head: Array(pls.utf8), contentType: nil) == .redirect("http://a/2"))
        let m3u = "#EXTM3U\n#EXTINF:-9223372036854775808,x\n#EXTINF:1e300,y\nhttp://a/b\n"
        #expect(StationPlaylist.classify(head: Array(m3u.utf8), contentType: "audio/x-mpegurl") == .redirect("http://a/b"))
    }
}
