#if canImport(Glibc)
import Glibc
#endif
import NoiseClockThreads
import Synchronization

extension StationSource {
    /// The player's side: one connection after the other until told to stop.
    final class StationPlayer: @unchecked Sendable {
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
                // The socket holds what comes meanwhile; the next read stamps its arrival from the
                // kernel's own time of it (`StreamSockets`), so the wait is one sleep; a stop ends it at once.
                if ok, !shared.offline, shared.ring.available > StationSource.batchAboveSeconds * outputRate {
                    _ = shared.wake.wait(seconds: StationSource.batchSeconds)
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
