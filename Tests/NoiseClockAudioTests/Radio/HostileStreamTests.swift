import Foundation
import Glibc
import Synchronization
import Testing
@testable import NoiseClockAudio

/// Issue 37's playlist findings against the tests' own hostile server on loopback (mqtt-api v1.4,
/// "Streams are bounded"), through the player (`StationSource`) and the probe (`station/test`, the
/// readiness check) alike. Each failed before its bound: the numbers trapped (the process died),
/// the endless segment grew without end, the self-naming playlists and the 404 segments were asked
/// for thousands of times a second. `make stream-test`. The tests are async and block no thread of
/// the shared pool (probes and readers on threads of their own): the stage's timing tests stamp
/// their messages there, and two blocked threads made a preroll ring look 1.2-2.3 s late.
@Suite(.serialized, .enabled(if: getenv("NOISECLOCK_STREAM_TESTS").map { String(cString: $0) } == "1", "run by make stream-test"))
struct HostileStreamTests {
    static let library = try? StreamLibrary.shared.get()

    /// `body` on a thread of its own, awaited.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread { continuation.resume(returning: body()) }.start() }
    }

    static func probe(_ url: String) async -> String? {
        await offPool {
            switch StationProbe(url: url, userAgent: "NoiseClock/test", allowsLocalAddresses: true).run() {
            case .success: nil
            case .failure(let failure): failure.cause
            }
        }
    }

    /// A player on `url` (as a noise or an alarm plays it) for `seconds`; its failure at the end.
    static func play(_ url: String, seconds: Double) async throws -> String? {
        let source = StationSource(url: url, outputRate: 48_000, userAgent: "NoiseClock/test", allowsLocalAddresses: true) { _ in }
        try await Task.sleep(for: .seconds(seconds))
        return source.failure
    }

    /// A player on `url` until it names a failure (at most 10 s).
    static func playUntilFailure(_ url: String) async throws -> String? {
        let source = StationSource(url: url, outputRate: 48_000, userAgent: "NoiseClock/test", allowsLocalAddresses: true) { _ in }
        for _ in 0..<200 where source.failure == nil { try await Task.sleep(for: .milliseconds(50)) }
        return source.failure
    }

    @Test(arguments: ["/seq-overflow.m3u8", "/seq-negative.m3u8", "/td-inf.m3u8", "/td-1e300.m3u8", "/td-nan.m3u8"])
    func aPlaylistNumberOutOfBoundsEndsTheStreamNeverTheProcess(_ path: String) async throws {
        _ = try #require(Self.library)
        let server = try HostileStreamServer()
        defer { server.stop() }
        #expect(await Self.probe(server.url(path)) == "undecodable", "station/test and the readiness probe")
        #expect(try await Self.playUntilFailure(server.url(path)) == "undecodable", "the player")
    }

    /// A segment that never ends (the tone, then random bytes or the tone again, at 4 MB/s): read
    /// to twice its `#EXTINF` in audio or 16 MiB, then cut, fed as it arrives, never held whole.
    @Test(arguments: ["/endless-audio.m3u8", "/endless-noise.m3u8"])
    func anEndlessSegmentIsCutAndHeldInNoMemory(_ path: String) async throws {
        _ = try #require(Self.library)
        let server = try HostileStreamServer()
        defer { server.stop() }
        let (segmentAudio, peak, requested) = await Self.offPool { Self.readEndless(server, path) }
        print("endless segment \(path): \(requested) segment requests, audio per segment \(segmentAudio.map { Int($0 * 1000) }) ms, "
            + "RSS +\(peak / 1024) kB at its peak")
        #expect(peak < 12 << 20, "at most +12 MB while reading")
        // Each segment gave at most twice its 2 s (and one decoded frame): cut, then the next.
        #expect(segmentAudio.allSatisfy { $0 <= 4.05 }, "\(segmentAudio)")
        if path == "/endless-audio.m3u8" { #expect(requested >= 3, "the first segment was cut and the next ones read") }
    }

    /// Reads the endless segments until three were asked for (12 s at most): the audio each gave,
    /// the RSS peak over the start, the segment requests.
    static func readEndless(_ server: HostileStreamServer, _ path: String) -> ([Double], Int, Int) {
        let segment = path.replacingOccurrences(of: ".m3u8", with: ".aac")
        var audio = 0.0, segmentAudio: [Double] = []
        let start = ContinuousClock.now
        // The server's log read at most every 50 ms (the callbacks come a thousand times a second).
        var seen = 0, readAt = start - .seconds(1)
        let requests = { () -> Int in
            if ContinuousClock.now - readAt > .milliseconds(50) { (seen, readAt) = (server.requests(segment), .now) }
            return seen
        }
        let peak = ResidentMemory.peakGrowth {
            // The tests' server is on loopback: allowed here as `stream.allow_local_addresses` allows it.
            let reader = HLSReader(url: server.url(path), userAgent: "NoiseClock/test")
            _ = StreamAddressRule.allowingLocal(true) { reader.run(library: Self.library!, hooks: HLSReader.Hooks(
                shouldStop: { requests() >= 3 || ContinuousClock.now - start > .seconds(12) },
                bufferedSeconds: { 0 }, wait: { usleep(UInt32($0 * 1_000_000)) }, frames: { samples, channels, rate, _ in
                    let requested = server.requests(segment)
                    while segmentAudio.count < requested { segmentAudio.append(0) }
                    segmentAudio[segmentAudio.count - 1] += Double(samples.count / channels) / Double(rate)
                    audio += Double(samples.count / channels) / Double(rate)
                }, title: { _ in })) }
        }
        return (segmentAudio, peak, server.requests(segment))
    }

    /// A playlist naming itself (an m3u its own URL, a master whose variant is itself) ends at once:
    /// the probe makes one request (two for the master: the player's look and the reader's load),
    /// the player a round per back-off (1 s doubling): a handful in 10 s, not thousands a second.
    @Test(arguments: ["/self.m3u", "/self-master.m3u8"])
    func aPlaylistNamingItselfEndsTheStream(_ path: String) async throws {
        _ = try #require(Self.library)
        let server = try HostileStreamServer()
        defer { server.stop() }
        #expect(await Self.probe(server.url(path)) == "undecodable")
        let probed = server.requests()
        #expect(probed <= 2, "\(probed) requests")
        let failure = try await Self.play(server.url(path), seconds: 10)
        let played = server.requests() - probed
        print("self-naming \(path): probe \(probed) requests; player \(played) requests in 10 s (\(failure ?? "-"))")
        #expect(failure == "undecodable")
        // Rounds at 0, 1, 3, 7 s (and one more on a slow start), two requests each at most.
        #expect(played <= 10, "\(played) requests in 10 s")
    }

    /// Playlists naming the next one forever, and HTTP redirects forever: 3 hops from the station's URL.
    @Test(arguments: ["/chain/0.m3u", "/redirect/0"])
    func atMostThreeHopsFromTheStationsURL(_ path: String) async throws {
        _ = try #require(Self.library)
        let server = try HostileStreamServer()
        defer { server.stop() }
        #expect(await Self.probe(server.url(path)) == "undecodable")
        let probed = server.requests()
        #expect(probed == 4, "the station's URL and three hops: \(probed) requests")
        let failure = try await Self.play(server.url(path), seconds: 10)
        let played = server.requests() - probed
        print("hops \(path): probe \(probed) requests; player \(played) requests in 10 s (\(failure ?? "-"))")
        #expect(failure == "undecodable")
        #expect(played <= 5 * 4, "rounds at 0, 1, 3, 7 s (one more on a slow start), 4 requests each: \(played)")
    }

    /// Segments that are 404 forever, each reload naming new ones: every request without audio is
    /// followed by the back-off, so the station costs its server at most a request a second.
    @Test func notFoundSegmentsForeverCostAtMostARequestASecond() async throws {
        _ = try #require(Self.library)
        let server = try HostileStreamServer()
        defer { server.stop() }
        let failure = try await Self.play(server.url("/notfound.m3u8"), seconds: 15)
        let requests = server.requests()
        print("404 segments: \(requests) requests in 15 s (\(server.requests("/missing/")) segments), failure \(failure ?? "-")")
        #expect(requests <= 15, "\(requests) requests in 15 s")
        #expect(failure == "http_404", "the player says why")
    }

    /// A playlist body over 1 MiB is not read on (this bound held before issue 37 too).
    @Test func aPlaylistOverOneMebibyteEndsTheStream() async throws {
        _ = try #require(Self.library)
        let server = try HostileStreamServer()
        defer { server.stop() }
        #expect(await Self.probe(server.url("/big.m3u8")) == "undecodable")
    }
}

/// The test process's resident memory, sampled every 10 ms while `body` runs.
enum ResidentMemory {
    static func bytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The most the resident memory rose above its start while `body` ran.
    static func peakGrowth(_ body: () -> Void) -> Int {
        let baseline = bytes()
        let state = Mutex((peak: baseline, done: false))
        let sampler = Thread {
            while !state.withLock({ $0.done }) {
                let now = bytes()
                state.withLock { $0.peak = max($0.peak, now) }
                usleep(10_000)
            }
        }
        sampler.start()
        body()
        let peak = state.withLock { state -> Int in
            state.done = true
            return max(state.peak, bytes())
        }
        return peak - baseline
    }
}
