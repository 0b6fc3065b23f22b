#if canImport(Glibc)
import Glibc
#endif
import NoiseClockThreads
import Synchronization

/// A station played as a sound (`radio:<id>`): a `station-player` thread of its own connects
/// (libcurl; HLS by `HLSReader`), reads the ICY or in-stream titles, decodes (MP3, AAC, Ogg
/// Vorbis/Opus, FLAC: `StreamBodyReader` picks the decoder), converts to the engine's rate (`PolyphaseResampler`) and
/// fills a 12-second ring (16-bit) the audio thread only copies from, so neither the network nor the
/// decoder ever runs on the audio thread.
///
/// When the station cannot be heard (refused, DNS, an HTTP error, undecodable, the server gone or
/// silent on the wire for 5 s, or the ring dry for 5 s once it played) the first cause is kept
/// (`failure`): the mixer reports it for a ringing alarm, which then rings the fallback tone. The
/// player itself reconnects with back-off (1 s doubling to 5 s), so a noise on a station comes
/// back when the station does. Its owner joins the player: whoever lets go of it last (the
/// engine's `audio-handoff` thread, never the audio thread) waits for it to end, which the stop
/// makes quick by cutting its sockets.
public final class StationSource: SoundSource, Sendable {
    /// The ring: ≥ 10 s (the bound) of decoded audio at the engine's rate.
    static let bufferSeconds = 12.0
    /// Once it played, this long with the ring dry is a stall.
    static let stallSeconds = 5
    /// Played only with this much in the ring (at the start, and again after running dry): the
    /// network's jitter is absorbed here rather than heard as gaps.
    static let primeSeconds = 0.3
    /// Above this much in the ring the player reads the network every `batchSeconds`, not per packet.
    static let batchAboveSeconds = 2
    static let batchSeconds = 0.5
    static let causes = ["", "dns", "refused", "timeout", "tls", "no_audio", "undecodable", "silent", "stalled", "forbidden_address"]

    /// Digital silence (every sample below one 16-bit step) for this long once the station was
    /// heard is `silent`; before it was ever heard, for `silentFirstSeconds` (the probe's rule).
    static let silentSeconds = 10
    static let silentFirstSeconds = 1
    /// Each run of the ring's audio starts and ends with a fade this long (5 ms at 48 kHz), so a
    /// stall or a return is never a click: the end is held back this much while playing.
    static let edgeFrames = 240
    static let audibleThreshold: Float = 1.0 / 32768
    /// How fast the leveller's gain may move at the speaker, in dB a second: down fast (a station
    /// turned loud is brought back within about a second), up slowly (never heard as pumping).
    static let levelDownDB: Float = 10
    static let levelUpDB: Float = 3
    /// Offline, the first audio waits for this much: the leveller's first estimate and a little.
    static let firstLevelSeconds = 0.6

    /// `http_<status>` made ahead for every status libcurl reports, so the audio thread (the mixer
    /// reading `failure`) never builds a string.
    static let httpCauses: [String] = (0..<1000).map { "http_\($0)" }

    static func httpCause(_ status: Int) -> String { (0..<1000).contains(status) ? httpCauses[status] : "http_\(status)" }

    static func index(of cause: String) -> Int { causes.firstIndex(of: cause) ?? causes.firstIndex(of: "no_audio")! }

    let shared: Shared
    private let thread = DedicatedThread(name: "station-player")
    let outputRate: Int

    /// Starts the player; `onTitle` is called on its thread with each ICY title (nil: none).
    /// `waitsForData`: offline rendering (`noiseclock render URL`), which waits for the station
    /// rather than playing silence, and makes the player wait for room rather than drop audio.
    /// `allowsLocalAddresses`: `stream.allow_local_addresses` (`StreamAddressRule`).
    init(url: String, outputRate: Int, userAgent: String, caFile: String? = nil, waitsForData: Bool = false,
         allowsLocalAddresses: Bool = false, onTitle: @escaping @Sendable (String?) -> Void) {
        _ = Self.httpCauses.count  // made here, off the audio thread
        let shared = Shared(capacity: Int(Self.bufferSeconds * Double(outputRate)), offline: waitsForData)
        self.shared = shared
        self.outputRate = outputRate
        let player = StationPlayer(url: url, outputRate: outputRate, userAgent: userAgent, caFile: caFile, onTitle: onTitle)
        do {
            try thread.start {
                // Decoding comes in bursts (a server's burst at connect, a reconnect): behind the
                // loop and the audio thread on a small CPU.
                BackgroundPriority.lowerCallingThread()
                shared.playerThread.store(Self.currentThreadID(), ordering: .releasing)
                let limit = waitsForData ? nil : StreamFormatLimits.maxReceiveBytesPerSecond
                StreamFormatLimits.$receiveLimit.withValue(limit) {
                    StreamSockets.$current.withValue(shared.sockets) {
                        StreamAddressRule.allowingLocal(allowsLocalAddresses) { player.run(shared) }
                    }
                }
                shared.playerThread.store(0, ordering: .releasing)
            }
        } catch {
            shared.fail("no_audio")
        }
    }

    /// Stops the player and joins it: its sockets cut, its waits woken, it ends within moments.
    deinit {
        shared.stopping.store(true, ordering: .releasing)
        shared.sockets.cut()
        shared.wake.signal()
        shared.taken.signal()
        thread.join()
    }

    /// Why the station cannot be heard now (a contract cause), nil while it can: the connection's
    /// failure until a connection delivers audio again, else a stall or silence at the ring's end
    /// until audible audio plays again.
    public var failure: String? {
        let index = shared.cause.load(ordering: .acquiring)
        if index == -1 { return Self.httpCause(shared.httpStatus.load(ordering: .acquiring)) }
        if index > 0 { return Self.causes[index] }
        let rendered = shared.renderCause.load(ordering: .relaxed)
        return rendered > 0 ? Self.causes[rendered] : nil
    }

    /// The player thread's Linux thread id while it runs (0: not started or returned).
    var playerThreadID: Int32 { shared.playerThread.load(ordering: .acquiring) }

    /// The calling thread's Linux id, from /proc/thread-self ("<pid>/task/<tid>"; Glibc's module
    /// hides gettid).
    static func currentThreadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return 0 }
        return Int32(String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/").last ?? "") ?? 0
    }

    /// Seconds rendered since the last audible frame (dry, silent, or never connected).
    var quietSeconds: Double { Double(shared.quietFrames.load(ordering: .relaxed)) / Double(outputRate) }

    /// Seconds rendered audible in a row (0 after any block without a sample above one 16-bit step).
    var audibleSeconds: Double { Double(shared.audibleFrames.load(ordering: .relaxed)) / Double(outputRate) }
}
