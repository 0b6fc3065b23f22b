import Glibc
import NoiseClockCore

/// `station/test` and the readiness check's probe: connects, follows a playlist, decodes 1 s of
/// audio (reading on to the first ICY title when the server announces them, 3 s at most) and
/// says what it heard, or why not, in the contract's causes. Blocking: run on a thread of its own.
public struct StationProbe: Sendable {
    public struct Result: Equatable, Sendable {
        public var firstAudioMilliseconds: Int
        public var codec: String
        public var bitrateKbps: Int?
        public var sampleRate: Int
        public var channels: Int
        public var title: String?
        /// The peak of the decoded second (0 is digital silence: `silent`).
        public var peak: Float

        public var json: JSONValue {
            .object(JSONObject([
                ("first_audio_ms", .int(Int64(firstAudioMilliseconds))), ("codec", .string(codec)),
                ("bitrate_kbps", bitrateKbps.map { .int(Int64($0)) } ?? .null), ("sample_rate", .int(Int64(sampleRate))),
                ("channels", .int(Int64(channels))), ("title", title.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } ?? .null),
            ]))
        }
    }

    public var url: String
    public var userAgent: String
    public var caFile: String?
    /// `stream.allow_local_addresses` (`StreamAddressRule`): else loopback and link-local are `forbidden_address`.
    public var allowsLocalAddresses: Bool

    public init(url: String, userAgent: String, caFile: String? = nil, allowsLocalAddresses: Bool = false) {
        self.url = url
        self.userAgent = userAgent
        self.caFile = caFile
        self.allowsLocalAddresses = allowsLocalAddresses
    }

    /// The probe's answer: what it heard, or the cause (`dns`, `refused`, `timeout`, `http_<status>`,
    /// `tls`, `no_audio`, `undecodable`, `silent`, `forbidden_address`).
    public func run(cutBy cutter: StreamCutter? = nil) -> Swift.Result<Result, StreamProbeFailure> {
        guard let cutter else { return StreamAddressRule.allowingLocal(allowsLocalAddresses) { runBound() } }
        return StreamSockets.$current.withValue(cutter.sockets) { StreamAddressRule.allowingLocal(allowsLocalAddresses) { runBound() } }
    }

    private func runBound() -> Swift.Result<Result, StreamProbeFailure> {
        let library: StreamLibrary
        switch StreamLibrary.shared {
        case .success(let loaded): library = loaded
        case .failure: return .failure(StreamProbeFailure(cause: "no_audio"))
        }
        // The player's bounds (StreamLimits): at most 3 hops, none back to an address already met.
        let budget = StreamBudget(stationURL: url)
        var address = url
        while true {
            let outcome = probe(address, budget: budget, library: library)
            guard case .failure(let failure) = outcome, let next = failure.redirect else { return outcome }
            if budget.hop(to: next) != nil { return .failure(StreamProbeFailure(cause: "undecodable")) }
            address = next
        }
    }

    private func probe(_ address: String, budget: StreamBudget, library: StreamLibrary) -> Swift.Result<Result, StreamProbeFailure> {
        let start = ContinuousClock.now
        func elapsed() -> Double {
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var head: StreamConnection.Head?
        var body: StreamBodyReader?
        var hearing = Hearing()
        var titles: [String?] = []
        let connection = StreamConnection(url: address, userAgent: userAgent, caFile: caFile, maxRedirects: budget.redirectsLeft)
        let end = connection.run(library: library, onHead: { received in
            head = received
            body = StreamBodyReader(contentType: received.contentType, library: library)
            return true
        }, onAudio: { bytes in
            guard let body else { return false }
            guard body.feed(bytes, frames: { samples, channels in
                hearing.heard(samples, channels: channels, at: elapsed())
            }, title: { titles.append($0) }) else { return false }
            let second = body.decoder.map { hearing.frames >= $0.sampleRate && $0.sampleRate > 0 } ?? false
            // Icecast's first block to a listener is often an empty title (its burst): a named one
            // is worth waiting for, within the 3 s.
            let titled = head?.metaInterval == nil || titles.contains { !($0 ?? "").isEmpty }
            return !(second && (titled || elapsed() > 3))
        }, onTitle: { titles.append($0) }, shouldStop: { elapsed() > 8 })
        body?.finish()
        if budget.redirected(connection.redirects) != nil { return .failure(StreamProbeFailure(cause: "undecodable")) }
        switch body?.verdict {
        case .redirect(let next): return .failure(StreamProbeFailure(cause: "no_audio", redirect: next))
        case .undecodable: return .failure(StreamProbeFailure(cause: "undecodable"))
        case .hls: return probeHLS(address, budget: budget, library: library, start: start)
        default: break
        }
        if case .failed(let cause) = end, hearing.firstAudio == nil { return .failure(StreamProbeFailure(cause: cause)) }
        guard let decoder = body?.decoder else { return .failure(StreamProbeFailure(cause: "no_audio")) }
        return hearing.result(codec: decoder.codec, bitrateKbps: head?.bitrateKbps, sampleRate: decoder.sampleRate,
                              channels: decoder.channels, title: titles.last { !($0 ?? "").isEmpty } ?? nil)
    }

    /// An HLS station: its segments until a second is decoded (8 s at most from the start).
    private func probeHLS(
        _ address: String, budget: StreamBudget, library: StreamLibrary, start: ContinuousClock.Instant
    ) -> Swift.Result<Result, StreamProbeFailure> {
        func elapsed() -> Double {
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var hearing = Hearing()
        var format = (codec: "", rate: 0, channels: 0)
        var title: String?
        let reader = HLSReader(url: address, userAgent: userAgent, caFile: caFile, budget: budget)
        let (end, _) = reader.run(library: library, hooks: HLSReader.Hooks(
            shouldStop: { elapsed() > 8 || (format.rate > 0 && hearing.frames >= format.rate) }, bufferedSeconds: { 0 },
            // A back-off never carries the probe past its 8 s.
            wait: { usleep(UInt32(max(0, min($0, 8.05 - elapsed())) * 1_000_000)) }, frames: { samples, channels, rate, codec in
                format = (codec, rate, channels)
                hearing.heard(samples, channels: channels, at: elapsed())
            }, title: { title = $0 ?? title }))
        if case .failed(let cause) = end, hearing.firstAudio == nil { return .failure(StreamProbeFailure(cause: cause)) }
        return hearing.result(codec: format.codec, bitrateKbps: nil, sampleRate: format.rate, channels: format.channels, title: title)
    }

    /// What the probe decoded: when it first heard audio, how much, how loud.
    private struct Hearing {
        var firstAudio: Double?
        var frames = 0
        var peak: Float = 0

        mutating func heard(_ samples: UnsafeBufferPointer<Float>, channels: Int, at seconds: Double) {
            if firstAudio == nil { firstAudio = seconds }
            frames += samples.count / max(1, channels)
            for sample in samples { peak = max(peak, abs(sample)) }
        }

        func result(codec: String, bitrateKbps: Int?, sampleRate: Int, channels: Int, title: String?) -> Swift.Result<Result, StreamProbeFailure> {
            guard let firstAudio, frames > 0 else { return .failure(StreamProbeFailure(cause: "no_audio")) }
            guard peak > 0 else { return .failure(StreamProbeFailure(cause: "silent")) }
            return .success(Result(
                firstAudioMilliseconds: Int(firstAudio * 1000), codec: codec, bitrateKbps: bitrateKbps,
                sampleRate: sampleRate, channels: channels, title: title, peak: peak))
        }
    }
}

/// Why a probe heard nothing; `redirect`: a playlist named another address (followed by `run`).
public struct StreamProbeFailure: Error, Equatable, Sendable {
    public var cause: String
    var redirect: String?

    init(cause: String, redirect: String? = nil) {
        self.cause = cause
        self.redirect = redirect
    }
}
