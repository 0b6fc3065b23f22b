import Foundation
import Glibc
import Testing
@testable import NoiseClockAudio

/// The stream player's network half against real servers on loopback: a real Icecast 2 fed by
/// FFmpeg (the head, the MP3 bytes, an ICY title set through Icecast's admin interface), and the
/// failures as the contract names them (`refused`, `http_404`, `timeout` from a server that
/// accepts and never answers, `dns`). Run by `make stream-test` (scripts/stream-tests.sh).
@Suite(.serialized, .enabled(if: getenv("NOISECLOCK_STREAM_TESTS").map { String(cString: $0) } == "1", "run by make stream-test"))
struct StreamConnectionTests {
    static let library = try? StreamLibrary.shared.get()
    /// How long a test waits for its Icecast mount to be fed (a signal polled, not a sleep: the 5 s
    /// it had were missed once in CI's stream stage, Icecast refusing the probe at its end).
    static let mountSeconds = 60.0

    /// Runs a connection until `until` says stop, or 10 s; the head, the audio bytes, the titles, the end.
    static func read(_ url: String, stallSeconds: Int = 5, until: @escaping (Int, [String?]) -> Bool = { _, _ in false })
        -> (head: StreamConnection.Head?, bytes: [UInt8], titles: [String?], end: StreamConnection.End, seconds: Double) {
        var head: StreamConnection.Head?, bytes: [UInt8] = [], titles: [String?] = []
        let start = ContinuousClock.now
        // The test's servers are on loopback (`stream.allow_local_addresses`).
        let end = StreamAddressRule.allowingLocal(true) {
            StreamConnection(url: url, userAgent: "NoiseClock/test", stallSeconds: stallSeconds).run(
                library: library!, onHead: { head = $0; return true }, onAudio: { bytes += $0; return !until(bytes.count, titles) },
                onTitle: { titles.append($0) }, shouldStop: { ContinuousClock.now - start > .seconds(10) })
        }
        let elapsed = ContinuousClock.now - start
        return (head, bytes, titles, end, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test func readsAnIcecastMountWithItsTitle() throws {
        _ = try #require(Self.library)
        let server = try IcecastServer()
        defer { server.stop() }
        try server.startSource()
        // The mount exists once the encoder has connected: poll for it (FFmpeg and Icecast may
        // take many seconds to start on a loaded machine: CI's stream stage beside other work).
        var first = Self.read(server.url("/jazz.mp3")) { count, _ in count > 0 }
        let mountDeadline = Clocks.monotonicSeconds() + Self.mountSeconds
        while first.head?.status != 200 && Clocks.monotonicSeconds() < mountDeadline {
            usleep(100_000)
            first = Self.read(server.url("/jazz.mp3")) { count, _ in count > 0 }
        }
        #expect(first.head?.status == 200 && first.head?.contentType == "audio/mpeg" && first.head?.metaInterval == 16_000)
        // Set the title through Icecast's admin interface (the same client reads the answer).
        let title = "Miles Davis - So What"
        let update = Self.read(server.adminURL + "/metadata?mount=/jazz.mp3&mode=updinfo&song=Miles%20Davis%20-%20So%20What")
        #expect(update.head?.status == 200, "\(String(decoding: update.bytes, as: UTF8.self))")
        let reading = Self.read(server.url("/jazz.mp3")) { _, titles in titles.contains(title) }
        #expect(reading.end == .stopped)
        #expect(reading.titles.contains(title), "\(reading.titles)")
        // Only audio went to the decoder: MP3 frame headers (0xFFE sync) throughout, no metadata text.
        let syncs = zip(reading.bytes, reading.bytes.dropFirst()).filter { $0 == 0xFF && $1 & 0xE0 == 0xE0 }.count
        #expect(syncs > reading.bytes.count / 1000, "\(syncs) MP3 frame syncs in \(reading.bytes.count) bytes")
        #expect(String(decoding: reading.bytes, as: UTF8.self).contains("StreamTitle") == false)
        print("icecast: \(reading.bytes.count) audio bytes, titles \(reading.titles), in \(reading.seconds) s")
        let missing = Self.read(server.url("/nope.mp3"))
        #expect(missing.end == .failed("http_404"))
    }

    @Test func aRefusedPortIsRefused() throws {
        _ = try #require(Self.library)
        let port = try freeLoopbackPort()
        #expect(Self.read("http://127.0.0.1:\(port)/live").end == .failed("refused"))
    }

    @Test func aNameThatDoesNotResolveIsDNS() throws {
        _ = try #require(Self.library)
        #expect(Self.read("http://station.invalid/live").end == .failed("dns"))
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        _ = try #require(Self.library)
        // Listens (the kernel accepts the connection) and never says a word.
        let silent = try LoopbackListener()
        let reading = Self.read("http://127.0.0.1:\(silent.port)/live", stallSeconds: 2)
        #expect(reading.end == .failed("timeout"))
        #expect(reading.seconds >= 1.5 && reading.seconds < 4, "\(reading.seconds) s")
    }
}

/// `station/test`'s probe against the real Icecast: the codec, rate, channels and title the
/// encoder sent, and a decoded second that is the encoder's 440 Hz tone (counted zero crossings);
/// a playlist naming the mount is followed; the failures keep their causes.
extension StreamConnectionTests {
    @Test func theProbeHearsTheStationAndFollowsItsPlaylist() throws {
        _ = try #require(Self.library)
        let server = try IcecastServer()
        defer { server.stop() }
        try server.startSource()
        var result = StationProbe(url: server.url("/jazz.mp3"), userAgent: "NoiseClock/test", allowsLocalAddresses: true).run()
        let deadline = Clocks.monotonicSeconds() + Self.mountSeconds
        while Clocks.monotonicSeconds() < deadline {
            guard case .failure = result else { break }
            usleep(100_000)
            result = StationProbe(url: server.url("/jazz.mp3"), userAgent: "t", allowsLocalAddresses: true).run()
        }
        _ = Self.read(server.adminURL + "/metadata?mount=/jazz.mp3&mode=updinfo&song=So%20What")
        let heard = try StationProbe(url: server.url("/jazz.mp3"), userAgent: "NoiseClock/test", allowsLocalAddresses: true).run().get()
        print("probe: \(heard.json.serialized) peak \(heard.peak)")
        #expect(heard.codec == "mp3" && heard.sampleRate == 44_100 && heard.channels == 1)
        #expect(heard.title == "So What")
        #expect(heard.firstAudioMilliseconds < 1000)
        #expect(heard.peak > 0.1 && heard.peak < 0.15, "FFmpeg's sine source has amplitude 1/8")
        // Icecast's own .m3u for the mount names it: followed.
        let viaPlaylist = StationProbe(url: server.url("/jazz.mp3.m3u"), userAgent: "NoiseClock/test", allowsLocalAddresses: true).run()
        #expect((try? viaPlaylist.get())?.codec == "mp3", "\(viaPlaylist)")
        let missing = StationProbe(url: server.url("/nope.mp3"), userAgent: "t", allowsLocalAddresses: true).run()
        #expect(missing == .failure(StreamProbeFailure(cause: "http_404")))
    }

    @Test func theDecodedToneIsTheEncodersTone() throws {
        _ = try #require(Self.library)
        let server = try IcecastServer()
        defer { server.stop() }
        try server.startSource()
        var samples: [Float] = []
        var rate = 0
        let deadline = Clocks.monotonicSeconds() + Self.mountSeconds
        while samples.count < 44_100 && Clocks.monotonicSeconds() < deadline {
            samples = []
            let decoder = try #require(MP3StreamDecoder(library: Self.library!))
            // A 404 until the encoder has connected: then again.
            _ = StreamAddressRule.allowingLocal(true) {
                StreamConnection(url: server.url("/jazz.mp3"), userAgent: "t").run(library: Self.library!, onHead: { _ in true }, onAudio: {
                    _ = decoder.feed($0) { block, _ in samples += block }
                    return samples.count < 88_200
                }, onTitle: { _ in }, shouldStop: { false })
            }
            rate = decoder.sampleRate
            if samples.count < 44_100 { usleep(100_000) }
        }
        // Skip the decoder's first 0.1 s; count rising zero crossings over one second.
        let second = Array(samples[4410..<(4410 + 44_100)])
        let crossings = zip(second, second.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        print("decoded: \(samples.count) samples at \(rate) Hz, \(crossings) rising crossings in 1 s")
        #expect(rate == 44_100)
        #expect(abs(crossings - 440) <= 2)
    }
}
