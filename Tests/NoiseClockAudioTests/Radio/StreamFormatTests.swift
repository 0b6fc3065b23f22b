import Foundation
import Glibc
import Testing
@testable import NoiseClockAudio

/// Every format and transport a station may use, against real servers on loopback: one Icecast 2
/// with a mount per codec, each fed by FFmpeg's encoder with a 440 Hz tone (AAC, Ogg Vorbis, Ogg
/// Opus, Ogg FLAC), two HLS streams FFmpeg writes live (AAC in MPEG-TS, 1 s segments; MP3 in
/// MPEG-TS behind a master playlist) served over plain HTTP, and a native FLAC file likewise. Each is decoded by the player's own path
/// (`StreamBodyReader`, `HLSReader`): its tone counted (rising zero crossings), its title read
/// (ICY through Icecast's admin interface for AAC, Vorbis comments/OpusTags in the stream for Ogg,
/// `#EXTINF` for HLS, the VORBIS_COMMENT block for native FLAC), and `station/test`'s probe answers its codec. `make stream-test`.
@Suite(.serialized, .enabled(if: getenv("NOISECLOCK_STREAM_TESTS").map { String(cString: $0) } == "1", "run by make stream-test"))
struct StreamFormatTests {
    static let library = try? StreamLibrary.shared.get()
    static let tags = ["-metadata", "artist=Miles Davis", "-metadata", "title=So What"]
    static let title = "Miles Davis - So What"

    /// What a listener heard: the codec, rate and channels, the first channel's samples, the titles.
    struct Heard {
        var codec = "", rate = 0, channels = 0
        var samples: [Float] = []
        var titles: [String?] = []

        /// Rising zero crossings over one second from 0.3 s (past the encoder's priming).
        var pitch: Int {
            guard rate > 0, samples.count >= rate * 13 / 10 else { return -1 }
            let second = samples[(rate * 3 / 10)..<(rate * 13 / 10)]
            return zip(second, second.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        }
    }

    /// Listens to `url` by the player's decoding path until 1.5 s is decoded and `titled` (or 8 s).
    static func listen(_ url: String, titled: @escaping ([String?]) -> Bool = { _ in true }) -> Heard {
        // The test's servers are on loopback (`stream.allow_local_addresses`).
        StreamAddressRule.allowingLocal(true) { listenBound(url, titled: titled) }
    }

    static func listenBound(_ url: String, titled: @escaping ([String?]) -> Bool) -> Heard {
        var heard = Heard()
        let start = ContinuousClock.now
        let enough = { heard.rate > 0 && heard.samples.count >= heard.rate * 3 / 2 && titled(heard.titles) }
        let timeUp = { ContinuousClock.now - start > .seconds(8) }
        func take(_ samples: UnsafeBufferPointer<Float>, _ channels: Int) {
            for index in stride(from: 0, to: samples.count, by: channels) { heard.samples.append(samples[index]) }
        }
        var body: StreamBodyReader?
        _ = StreamConnection(url: url, userAgent: "NoiseClock/test").run(library: library!, onHead: {
            body = StreamBodyReader(contentType: $0.contentType, library: library!)
            return true
        }, onAudio: { bytes in
            guard let body, body.feed(bytes, frames: { samples, channels in
                take(samples, channels)
                (heard.codec, heard.rate, heard.channels) = (body.decoder!.codec, body.decoder!.sampleRate, channels)
            }, title: { heard.titles.append($0) }) else { return false }
            return !enough()
        }, onTitle: { heard.titles.append($0) }, shouldStop: timeUp)
        body?.finish()
        guard body?.verdict == .hls else { return heard }
        _ = HLSReader(url: url, userAgent: "NoiseClock/test").run(library: library!, hooks: HLSReader.Hooks(
            shouldStop: { enough() || timeUp() }, bufferedSeconds: { 0 }, wait: { usleep(UInt32($0 * 1_000_000)) },
            frames: { samples, channels, rate, codec in
                take(samples, channels)
                (heard.codec, heard.rate, heard.channels) = (codec, rate, channels)
            }, title: { heard.titles.append($0) }))
        return heard
    }

    /// `listen`, again until something is heard (a mount or playlist appears once its encoder has
    /// connected or written a first segment): at most 8 s.
    static func listenOnceOnAir(_ url: String, titled: @escaping ([String?]) -> Bool) -> Heard {
        let start = ContinuousClock.now
        var heard = listen(url, titled: titled)
        while heard.samples.isEmpty, ContinuousClock.now - start < .seconds(8) {
            usleep(100_000)
            heard = listen(url, titled: titled)
        }
        return heard
    }

    struct Station: Sendable {
        var url: String
        var codec: String
        var rate: Int
        var channels: Int
    }

    @Test func everyFormatPlaysItsToneAndShowsItsTitle() throws {
        _ = try #require(Self.library)
        let server = try IcecastServer()
        defer { server.stop() }
        let icecast: [(mount: String, codec: String, encoder: [String], rate: Int, channels: Int)] = [
            // libfaad2 gives mono AAC as two equal channels (it cannot rule out parametric stereo).
            ("/aac", "aac", ["-c:a", "aac", "-b:a", "64k", "-content_type", "audio/aac", "-f", "adts"], 44_100, 2),
            ("/vorbis.ogg", "vorbis", ["-c:a", "libvorbis", "-b:a", "96k"] + Self.tags + ["-content_type", "audio/ogg", "-f", "ogg"], 44_100, 1),
            ("/opus.ogg", "opus", ["-c:a", "libopus", "-b:a", "64k"] + Self.tags + ["-content_type", "audio/ogg", "-f", "ogg"], 48_000, 1),
            ("/flac.ogg", "flac", ["-c:a", "flac"] + Self.tags + ["-content_type", "audio/ogg", "-f", "ogg"], 44_100, 1),
        ]
        for mount in icecast { try server.startSource(mount: mount.mount, encoder: mount.encoder, rate: mount.rate) }
        // HLS, written live by FFmpeg (AAC in MPEG-TS, 1 s segments), and a native FLAC file, both
        // over plain HTTP.
        let live = try server.startHLS()
        let web = server.hlsFolder
        // A second HLS stream: MP3 in MPEG-TS behind a master playlist that names it.
        mkdir(web + "/mp3", 0o755)
        try server.start("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-c:a", "libmp3lame",
            "-b:a", "128k", "-f", "hls", "-hls_time", "1", "-hls_list_size", "6", "-hls_flags", "delete_segments",
            "-master_pl_name", "master.m3u8", web + "/mp3/live.m3u8",
        ])
        let flacFile = try server.run("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=20", "-c:a", "flac",
        ] + Self.tags + [web + "/tone.flac"])
        try #require(flacFile == 0)
        let http = live.replacingOccurrences(of: "/live.m3u8", with: "")
        let stations = icecast.map { Station(url: server.url($0.mount), codec: $0.codec, rate: $0.rate, channels: $0.channels) } + [
            Station(url: live, codec: "aac", rate: 44_100, channels: 2),
            Station(url: http + "/mp3/master.m3u8", codec: "mp3", rate: 44_100, channels: 1),
            Station(url: http + "/tone.flac", codec: "flac", rate: 44_100, channels: 1),
        ]
        let setTitle = server.adminURL + "/metadata?mount=/aac&mode=updinfo&song=Miles%20Davis%20-%20So%20What"
        _ = StreamConnectionTests.read(setTitle)
        // All at once, each on a thread of its own (they wait on the network, not the CPU).
        let results = Results(count: stations.count)
        let group = DispatchGroup()
        for (index, station) in stations.enumerated() {
            DispatchQueue.global().async(group: group) {
                // The AAC mount's ICY title is set once the mount is up: set again until heard.
                let titled: ([String?]) -> Bool = { $0.contains(Self.title) }
                let heard = Self.listenOnceOnAir(station.url, titled: titled)
                if station.codec == "aac", !heard.titles.contains(Self.title) {
                    _ = StreamConnectionTests.read(setTitle)
                }
                let again = station.codec == "aac" && !heard.titles.contains(Self.title) ? Self.listen(station.url, titled: titled) : heard
                let probe = StationProbe(url: station.url, userAgent: "NoiseClock/test", allowsLocalAddresses: true).run()
                results.set(index, again, try? probe.get())
            }
        }
        group.wait()
        for (index, station) in stations.enumerated() {
            let (heard, probe) = results.get(index)
            print("\(station.url): \(heard.codec) \(heard.rate) Hz \(heard.channels) ch, \(heard.pitch) crossings/s, titles \(heard.titles); "
                + "probe \(probe?.json.serialized ?? "failed")")
            #expect(heard.codec == station.codec && heard.rate == station.rate && heard.channels == station.channels, "\(station.url)")
            #expect(abs(heard.pitch - 440) <= 2, "\(station.url): the encoder's 440 Hz tone, decoded")
            #expect(heard.titles.contains(Self.title), "\(station.url): \(heard.titles)")
            #expect(probe?.codec == station.codec, "\(station.url)")
        }
    }

    /// The threads' answers, kept under a lock.
    final class Results: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var values: [(Heard, StationProbe.Result?)]

        init(count: Int) { values = Array(repeating: (Heard(), nil), count: count) }

        func set(_ index: Int, _ heard: Heard, _ probe: StationProbe.Result?) { lock.withLock { values[index] = (heard, probe) } }
        func get(_ index: Int) -> (Heard, StationProbe.Result?) { lock.withLock { values[index] } }
    }
}

/// A live Ogg station is a chain: each track a logical stream of its own, with its own headers and
/// tags. Two short tracks encoded by FFmpeg and joined byte for byte (a valid chained Ogg stream),
/// Vorbis and then Opus, fed in 1 KB pieces: both tracks' audio comes out, and each track's title
/// in turn.
extension StreamFormatTests {
    @Test(arguments: [("libvorbis", 44_100), ("libopus", 48_000)])
    func aChainedOggStreamGivesEachTracksTitle(encoder: String, rate: Int) throws {
        let codecs = try #require(try? CodecLibrary.shared.get())
        let directory = TestSupport.makeTemporaryDirectory()
        var chain: [UInt8] = []
        for title in ["First", "Second"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=1",
                "-c:a", encoder, "-metadata", "title=\(title)", "-f", "ogg", "\(directory)/\(title).ogg",
            ]
            try process.run()
            process.waitUntilExit()
            chain += try #require(FileManager.default.contents(atPath: "\(directory)/\(title).ogg"))
        }
        let decoder = OggStreamDecoder(codecs: codecs)
        var titles: [String?] = [], frames = 0
        for start in stride(from: 0, to: chain.count, by: 1024) {
            let ok = chain[start..<min(chain.count, start + 1024)].withUnsafeBytes {
                decoder.feed($0, frames: { samples, channels in frames += samples.count / channels }, title: { titles.append($0) })
            }
            try #require(ok)
        }
        print("chained \(encoder): \(frames) frames at \(decoder.sampleRate) Hz, titles \(titles)")
        #expect(titles == ["First", "Second"])
        // Two 1 s tracks, to the sample: Opus's pre-skip dropped and its last packet cut at the
        // granule position.
        #expect(frames == rate * 2, "\(frames)")
    }
}
