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
    /// While batching, the socket is looked at this often for new bytes (their arrival's time).
    static let arrivalLookSeconds = 0.1
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

    private final class Shared: Sendable {
        let ring: FrameRing
        let stopping = Atomic<Bool>(false)
        /// The player's cause (an index into `causes`, -1: `httpStatus`; 0: none): set when a
        /// connection fails, cleared when a connection delivers decoded audio again.
        let cause = Atomic<Int>(0)
        /// An HTTP error's status (`http_<status>`), when `cause` says so.
        let httpStatus = Atomic<Int>(0)
        /// The consumer's cause (`stalled`: the ring dry 5 s; `silent`): cleared by audible audio.
        let renderCause = Atomic<Int>(0)
        let played = Atomic<Bool>(false)
        /// When decoded audio last arrived (monotonic milliseconds): 5 s before now is a stall,
        /// however much the ring still holds.
        let lastDelivery = Atomic<Int>(0)
        let dryFrames = Atomic<Int>(0)
        /// The consumer plays from the ring (else it waits for `primeSeconds` in it).
        let primed = Atomic<Bool>(false)
        /// How far the current run's fade-in has gone (`edgeFrames`: done).
        let fadeIn = Atomic<Int>(0)
        /// Frames rendered since the last audible one (dry, silent or not yet connected).
        let quietFrames = Atomic<Int>(0)
        /// Frames of decoded digital silence in a row.
        let silentFrames = Atomic<Int>(0)
        /// Frames rendered audible in a row.
        let audibleFrames = Atomic<Int>(0)
        let everAudible = Atomic<Bool>(false)
        /// The leveller's gain (`StationLeveller`, Float bits), set by the player.
        let levelGain = Atomic<UInt32>(Float(1).bitPattern)
        /// The gain the audio thread applied last (Float bits; 0 until audio first played).
        let appliedGain = Atomic<UInt32>(0)
        let wake = WakeSignal()
        /// Offline (`waitsForData`): the consumer waits for the player and the player for room,
        /// nothing is dropped, and time is the consumer's.
        let offline: Bool
        /// Offline: the player wrote frames; the consumer took some.
        let delivered = WakeSignal()
        let taken = WakeSignal()
        /// Offline: the last block waited `stallSeconds` for the station in vain.
        let starved = Atomic<Bool>(false)
        /// The player thread's Linux thread id while it runs (0 before it starts and once it has
        /// returned): the tests see it go from /proc within a second of the stop.
        let playerThread = Atomic<Int32>(0)
        /// The player's open sockets: the stop cuts them (`StreamSockets`).
        let sockets = StreamSockets()

        init(capacity: Int, offline: Bool) {
            ring = FrameRing(capacity: capacity, sixteenBit: true)
            self.offline = offline
        }

        func fail(_ cause: String) {
            if cause.hasPrefix("http_"), let status = Int(cause.dropFirst(5)) {
                guard self.cause.compareExchange(expected: 0, desired: -1, ordering: .acquiringAndReleasing).exchanged else { return }
                httpStatus.store(status, ordering: .releasing)
                return
            }
            _ = self.cause.compareExchange(expected: 0, desired: StationSource.index(of: cause), ordering: .acquiringAndReleasing)
        }

        var stopped: Bool { stopping.load(ordering: .relaxed) }
    }

    /// `http_<status>` made ahead for every status libcurl reports, so the audio thread (the mixer
    /// reading `failure`) never builds a string.
    static let httpCauses: [String] = (0..<1000).map { "http_\($0)" }

    static func httpCause(_ status: Int) -> String { (0..<1000).contains(status) ? httpCauses[status] : "http_\(status)" }

    static func index(of cause: String) -> Int { causes.firstIndex(of: cause) ?? causes.firstIndex(of: "no_audio")! }

    private let shared: Shared
    private let thread = DedicatedThread(name: "station-player")
    private let outputRate: Int

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

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        if shared.offline { waitForFrames(frames) }
        let done = readRing(into: out, frames: frames)
        if shared.offline { shared.taken.signal() }
        if done < frames { (out + 2 * done).update(repeating: 0, count: 2 * (frames - done)) }
        track(out, done: done, frames: frames)
        level(out, done: done)
    }

    /// Offline: waits until the ring holds the block (and the edge held back, and the prime), or the station has
    /// been silent on the wire `stallSeconds` (then what there is plays, as live: a fade, silence).
    private func waitForFrames(_ frames: Int) {
        // The prime too, else `readRing` would play this block as silence while it primes; and
        // before the first audio, the leveller's first estimate (its first 400 ms measured), so
        // the start is levelled as a live mount's burst is.
        let first = shared.appliedGain.load(ordering: .relaxed) == 0
        let needed = max(frames + Self.edgeFrames, Int((first ? Self.firstLevelSeconds : Self.primeSeconds) * Double(outputRate)))
        var waited = 0.0
        while shared.ring.available < needed, waited < Double(Self.stallSeconds), !shared.stopped {
            shared.taken.signal()
            shared.delivered.wait(seconds: 0.1)
            waited += 0.1
        }
        shared.starved.store(waited >= Double(Self.stallSeconds), ordering: .relaxed)
    }

    /// Offline: the station gave nothing for `stallSeconds` (a reconnection that brings audio
    /// within that time is not this).
    var starved: Bool { shared.starved.load(ordering: .relaxed) }

    /// The leveller's gain, moved toward at most `levelDownDB` a second down and `levelUpDB` up,
    /// ramped across the block (no zipper); the first audio starts at the gain already measured.
    /// After `track`, which judges silence on the station's own samples.
    private func level(_ out: UnsafeMutablePointer<Float>, done: Int) {
        let target = Float(bitPattern: shared.levelGain.load(ordering: .relaxed))
        var applied = Float(bitPattern: shared.appliedGain.load(ordering: .relaxed))
        if applied == 0 {
            guard done > 0 else { return }
            applied = target
        }
        let seconds = Float(done) / Float(outputRate)
        let next = min(max(target, applied / pow(10, Self.levelDownDB * seconds / 20)), applied * pow(10, Self.levelUpDB * seconds / 20))
        if next != applied || applied != 1 {
            let step = (next - applied) / Float(max(done, 1))
            for index in 0..<done {
                let gain = applied + step * Float(index + 1)
                out[2 * index] *= gain
                out[2 * index + 1] *= gain
            }
        }
        shared.appliedGain.store(next.bitPattern, ordering: .relaxed)
    }

    /// Reads what the ring has for this block: nothing until `primeSeconds` are in it; the first
    /// `edgeFrames` of a run faded in; when the ring holds less than the block and the held-back
    /// edge, what is left with its end faded out, and the run ends (no click either way).
    private func readRing(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let edge = Self.edgeFrames
        if !shared.primed.load(ordering: .relaxed) {
            guard shared.ring.available >= Int(Self.primeSeconds * Double(outputRate)) else { return 0 }
            shared.primed.store(true, ordering: .relaxed)
            shared.fadeIn.store(0, ordering: .relaxed)
        }
        let available = shared.ring.available
        let done: Int
        if available >= frames + edge {
            done = shared.ring.read(into: out, count: frames)
        } else {
            done = shared.ring.read(into: out, count: min(frames, available))
            let fade = min(done, edge)
            for index in 0..<fade {
                let gain = Float(fade - 1 - index) / Float(edge)
                out[2 * (done - fade + index)] *= gain
                out[2 * (done - fade + index) + 1] *= gain
            }
            shared.primed.store(false, ordering: .relaxed)
        }
        let position = shared.fadeIn.load(ordering: .relaxed)
        if position < edge {
            let count = min(done, edge - position)
            for index in 0..<count {
                let gain = Float(position + index) / Float(edge)
                out[2 * index] *= gain
                out[2 * index + 1] *= gain
            }
            shared.fadeIn.store(position + count, ordering: .relaxed)
        }
        return done
    }

    /// The consumer's view of the station: audible or quiet, a stall (once it played: 5 s without
    /// decoded audio arriving, or the ring dry 5 s), digital silence.
    private func track(_ out: UnsafeMutablePointer<Float>, done: Int, frames: Int) {
        var peak: Float = 0
        for index in 0..<(2 * done) { peak = max(peak, abs(out[index])) }
        if peak >= Self.audibleThreshold {
            shared.quietFrames.store(0, ordering: .relaxed)
            shared.silentFrames.store(0, ordering: .relaxed)
            shared.audibleFrames.store(shared.audibleFrames.load(ordering: .relaxed) + frames, ordering: .relaxed)
            shared.everAudible.store(true, ordering: .relaxed)
            shared.renderCause.store(0, ordering: .relaxed)
        } else {
            shared.quietFrames.store(shared.quietFrames.load(ordering: .relaxed) + frames, ordering: .relaxed)
            shared.audibleFrames.store(0, ordering: .relaxed)
            if done > 0 {
                let silent = shared.silentFrames.load(ordering: .relaxed) + done
                shared.silentFrames.store(silent, ordering: .relaxed)
                let limit = shared.everAudible.load(ordering: .relaxed) ? Self.silentSeconds : Self.silentFirstSeconds
                if silent >= limit * outputRate { shared.renderCause.store(Self.index(of: "silent"), ordering: .relaxed) }
            }
        }
        guard shared.played.load(ordering: .relaxed) else { return }
        let silentFor = Int(Clocks.monotonicSeconds() * 1000) - shared.lastDelivery.load(ordering: .relaxed)
        if silentFor >= Self.stallSeconds * 1000 { shared.renderCause.store(Self.index(of: "stalled"), ordering: .relaxed) }
        if done == frames {
            shared.dryFrames.store(0, ordering: .relaxed)
        } else {
            let dry = shared.dryFrames.load(ordering: .relaxed) + frames - done
            shared.dryFrames.store(dry, ordering: .relaxed)
            if dry >= Self.stallSeconds * outputRate { shared.renderCause.store(Self.index(of: "stalled"), ordering: .relaxed) }
        }
    }

    /// The player's side: one connection after the other until told to stop.
    private final class StationPlayer: @unchecked Sendable {
        // @unchecked Sendable: made here, then used by the player thread alone.
        let url: String, outputRate: Int, userAgent: String, caFile: String?
        let onTitle: @Sendable (String?) -> Void
        /// Every title the stream carries (ICY, in-stream, HLS) goes through it: one a second at most.
        private let titles: StationTitleGate
        private var resampler: (any StereoResampling)?
        private var stereo: [Float] = []
        private var converted: [Float] = []
        private var leveller: StationLeveller?
        /// The most frames `deliver` converts at once (85 ms at 48 kHz).
        static let blockFrames = 4096

        init(url: String, outputRate: Int, userAgent: String, caFile: String?, onTitle: @escaping @Sendable (String?) -> Void) {
            self.url = url
            self.caFile = caFile
            self.outputRate = outputRate
            self.userAgent = userAgent
            self.onTitle = onTitle
            titles = StationTitleGate(deliver: onTitle)
        }

        func run(_ shared: Shared) {
            guard case .success(let library) = StreamLibrary.shared else {
                shared.fail("no_audio")
                return
            }
            // Hops and the back-off (StreamLimits): a playlist naming itself ends the attempt, and
            // every attempt without audio waits 1 s doubling to 5 s.
            let budget = StreamBudget(stationURL: url)
            var address = url
            while !shared.stopped {
                var (end, heard, redirect, hls) = connect(address, budget: budget, library: library, shared)
                if hls, !shared.stopped { (end, heard) = playHLS(address, budget: budget, library: library, shared) }
                if shared.stopped { return }
                if let redirect {
                    if budget.hop(to: redirect) == nil {
                        address = redirect
                        continue
                    }
                    end = .failed("undecodable")
                }
                switch end {
                case .failed(let cause): shared.fail(heard ? "stalled" : cause)
                case .closed, .stopped: shared.fail(heard ? "stalled" : "no_audio")
                }
                if heard { budget.heard() }
                shared.wake.wait(seconds: budget.failed())
                budget.restartRoute()
                address = url
            }
        }

        /// One connection: returns how it ended, whether audio was heard, a playlist's address, and
        /// whether the address is an HLS playlist (played by `playHLS`). The decoder is chosen by
        /// `StreamBodyReader` (docs/sounds.md, "The stream player").
        private func connect(
            _ address: String, budget: StreamBudget, library: StreamLibrary, _ shared: Shared
        ) -> (StreamConnection.End, Bool, String?, Bool) {
            var body: StreamBodyReader?
            var heard = false
            let connection = StreamConnection(url: address, userAgent: userAgent, caFile: caFile, stallSeconds: StationSource.stallSeconds,
                                              maxRedirects: budget.redirectsLeft)
            let end = connection.run(library: library, onHead: { head in
                body = StreamBodyReader(contentType: head.contentType, library: library)
                return true
            }, onAudio: { [self] bytes in
                guard let body else { return false }
                let arrived = shared.sockets.arrivedAt
                let ok = body.feed(bytes, frames: { samples, channels in
                    heard = true
                    self.deliver(samples, channels: channels, rate: body.decoder?.sampleRate ?? 0, arrived: arrived, shared)
                }, title: titles.offer)
                titles.tick()
                // With seconds in hand, read in batches: a live server sends each frame as it is
                // made (~40 a second), and one wake-up per frame was a sixth of the player's CPU
                // (docs/performance.md, issue 29).
                // The socket holds what comes meanwhile, looked at every 0.1 s so its arrival is
                // stamped when it comes (a stall is judged from it); a stop still ends the wait at once.
                if ok, !shared.offline, shared.ring.available > StationSource.batchAboveSeconds * outputRate {
                    let slices = Int((StationSource.batchSeconds / StationSource.arrivalLookSeconds).rounded())
                    for _ in 0..<slices where !shared.stopped {
                        if shared.wake.wait(seconds: StationSource.arrivalLookSeconds) { break }
                        shared.sockets.look()
                    }
                }
                return ok && !shared.stopped
            }, onTitle: titles.offer, shouldStop: { shared.stopped })
            body?.finish()
            if budget.redirected(connection.redirects) != nil { return (.failed("undecodable"), heard, nil, false) }
            switch body?.verdict {
            case .redirect(let next): return (end, heard, next, false)
            case .hls: return (end, heard, nil, true)
            case .undecodable: shared.fail("undecodable")
            default: break
            }
            return (end, heard, nil, false)
        }

        /// An HLS station: its segments one after the other, paced by the ring.
        private func playHLS(_ address: String, budget: StreamBudget, library: StreamLibrary, _ shared: Shared) -> (StreamConnection.End, Bool) {
            let reader = HLSReader(url: address, userAgent: userAgent, caFile: caFile, stallSeconds: StationSource.stallSeconds, budget: budget)
            let rate = Double(outputRate)
            return reader.run(library: library, hooks: HLSReader.Hooks(
                shouldStop: { shared.stopped }, bufferedSeconds: { Double(shared.ring.available) / rate },
                wait: { _ = shared.wake.wait(seconds: $0) }, frames: { [self] samples, channels, sampleRate, _ in
                    // Segments come ahead of their time, paced by the ring: stamped as decoded.
                    deliver(samples, channels: channels, rate: sampleRate, arrived: nil, shared)
                    titles.tick()
                }, title: titles.offer))
        }

        /// Decoded samples to stereo at the engine's rate, into the ring (dropped when it is full:
        /// a live station does not wait). In blocks of at most `blockFrames`, so the stereo and
        /// resampled buffers and the resampler's own stay small however much a read brought.
        /// `arrived`: when their bytes reached the socket (monotonic ms; nil or 0: now).
        private func deliver(_ samples: UnsafeBufferPointer<Float>, channels: Int, rate: Int, arrived: Int?, _ shared: Shared) {
            guard channels > 0, rate > 0 else { return }
            if rate != outputRate, resampler?.inputRate != rate { resampler = PolyphaseResampler.make(from: rate, to: outputRate) }
            var start = 0
            let total = samples.count / channels
            // A stop ends the work at the next block, however much a read brought.
            while start < total, !shared.stopped {
                let frames = min(Self.blockFrames, total - start)
                let block = UnsafeBufferPointer(rebasing: samples[(start * channels)..<((start + frames) * channels)])
                StereoFrames.take(block, channels: channels, into: &stereo)
                start += frames
                if rate == outputRate {
                    stereo.withUnsafeBufferPointer { write($0.baseAddress!, count: frames, shared) }
                    continue
                }
                guard let resampler else { return }
                let capacity = resampler.outputCapacity(forInput: frames)
                if converted.count < 2 * capacity { converted = [Float](repeating: 0, count: 2 * capacity) }
                let written = stereo.withUnsafeBufferPointer { input in
                    converted.withUnsafeMutableBufferPointer { output in
                        resampler.process(input.baseAddress!, count: frames, into: output.baseAddress!, capacity: capacity).written
                    }
                }
                converted.withUnsafeBufferPointer { write($0.baseAddress!, count: written, shared) }
            }
            let now = Int(Clocks.monotonicSeconds() * 1000)
            shared.lastDelivery.store(min(now, arrived.flatMap { $0 > 0 ? $0 : nil } ?? now), ordering: .relaxed)
            if !shared.played.load(ordering: .relaxed) { shared.played.store(true, ordering: .releasing) }
            // A connection that delivers audio again ends the last one's failure.
            if shared.cause.load(ordering: .relaxed) != 0 { shared.cause.store(0, ordering: .releasing) }
        }

        /// Frames at the engine's rate: measured by the leveller (before they can play), then into the ring.
        private func write(_ frames: UnsafePointer<Float>, count: Int, _ shared: Shared) {
            if leveller == nil { leveller = StationLeveller(sampleRate: outputRate) }
            if let gain = leveller?.measure(frames, count: count) {
                shared.levelGain.store(Float(gain).bitPattern, ordering: .relaxed)
            }
            var done = shared.ring.write(frames, count: count)
            // Offline, nothing is dropped: wait for the consumer to make room.
            while shared.offline, done < count, !shared.stopped {
                shared.delivered.signal()
                shared.taken.wait(seconds: 0.1)
                done += shared.ring.write(frames + 2 * done, count: count - done)
            }
            if shared.offline { shared.delivered.signal() }
        }
    }
}
