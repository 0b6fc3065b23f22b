import Testing
@testable import NoiseClockAudio

/// ICY metadata split from the audio however the body arrives (byte by byte, or in one piece),
/// and titles cleaned and bounded; playlists told apart and followed.
@Suite struct IcyMetadataReaderTests {
    /// A body of `blocks` audio blocks of `interval` bytes (byte i of the audio is i % 251), each
    /// followed by the metadata `texts[k]` (or an empty block).
    static func body(interval: Int, texts: [String?]) -> (body: [UInt8], audio: [UInt8]) {
        var body: [UInt8] = [], audio: [UInt8] = []
        for text in texts {
            let chunk = (0..<interval).map { UInt8((audio.count + $0) % 251) }
            audio += chunk
            body += chunk
            guard let text else { body.append(0); continue }
            var meta = Array(text.utf8)
            meta += [UInt8](repeating: 0, count: (16 - meta.count % 16) % 16)
            body.append(UInt8(meta.count / 16))
            body += meta
        }
        return (body, audio)
    }

    static func run(_ body: [UInt8], interval: Int?, pieces: Int) -> (audio: [UInt8], titles: [String?]) {
        var reader = IcyMetadataReader(interval: interval)
        var audio: [UInt8] = [], titles: [String?] = []
        var index = 0
        while index < body.count {
            let end = min(body.count, index + pieces)
            body[index..<end].withUnsafeBytes { bytes in
                reader.feed(bytes, audio: { audio += $0 }, title: { titles.append($0) })
            }
            index = end
        }
        return (audio, titles)
    }

    @Test(arguments: [1, 7, 16_000, 100_000])
    func splitsAudioFromTitlesInAnyPieces(pieces: Int) {
        let texts: [String?] = ["StreamTitle='Miles Davis - So What';StreamUrl='';", nil, "StreamTitle='';", "StreamTitle='Café - It's late';"]
        let (body, audio) = Self.body(interval: 8192, texts: texts)
        let out = Self.run(body, interval: 8192, pieces: pieces)
        #expect(out.audio == audio)
        #expect(out.titles == ["Miles Davis - So What", "", "Café - It's late"])
    }

    @Test func withoutAnIntervalEverythingIsAudio() {
        let bytes = (0..<5000).map { UInt8($0 % 256) }
        #expect(Self.run(bytes, interval: nil, pieces: 333).audio == bytes)
        #expect(Self.run(bytes, interval: 0, pieces: 333).audio == bytes)
    }

    @Test func titlesAreCleanedBoundedAndLatin1IsRead() {
        #expect(IcyMetadataReader.title(in: Array("StreamTitle='a\u{7}b\u{1}c';".utf8)) == "abc")
        let long = String(repeating: "é", count: 400)
        #expect(IcyMetadataReader.title(in: Array("StreamTitle='\(long)';".utf8))?.unicodeScalars.count == 256)
        #expect(IcyMetadataReader.title(in: Array("StreamTitle='Caf".utf8) + [0xE9] + Array("';".utf8)) == "Café")
        #expect(IcyMetadataReader.title(in: Array("StreamUrl='x';".utf8)) == nil)
    }

    @Test func playlistsAreToldApartAndFollowed() {
        let m3u = "#EXTM3U\n#EXTINF:-1,Jazz\r\nhttp://127.0.0.1:8000/jazz.mp3\nhttp://other/\n"
        #expect(StationPlaylist.classify(head: Array(m3u.utf8), contentType: "audio/x-mpegurl") == .redirect("http://127.0.0.1:8000/jazz.mp3"))
        #expect(StationPlaylist.classify(head: Array("http://a/b\n".utf8), contentType: "audio/mpegurl") == .redirect("http://a/b"))
        let pls = "[playlist]\nNumberOfEntries=2\nFile2=http://b/2\nFile1=https://a/1\nTitle1=A\n"
        #expect(StationPlaylist.classify(head: Array(pls.utf8), contentType: "text/plain") == .redirect("https://a/1"))
        let hls = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg1.ts\n"
        #expect(StationPlaylist.classify(head: Array(hls.utf8), contentType: "application/vnd.apple.mpegurl") == .hls)
        #expect(StationPlaylist.classify(head: [0xFF, 0xFB, 0x90, 0x64], contentType: "audio/mpeg") == .audio)
        #expect(StationPlaylist.classify(head: Array("#EXTM3U\nfile:///etc/passwd\n".utf8), contentType: nil) == .empty)
    }
}
