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

    public init(url: String, userAgent: String, caFile: String? = nil) {
        self.url = url
        self.userAgent = userAgent
        self.caFile = caFile
    }

    /// The probe's answer: what it heard, or the cause (`dns`, `refused`, `timeout`, `http_<status>`,
    /// `tls`, `no_audio`, `undecodable`, `silent`).
    public func run() -> Swift.Result<Result, StreamProbeFailure> {
        let library: StreamLibrary
        switch StreamLibrary.shared {
        case .success(let loaded): library = loaded
        case .failure: return .failure(StreamProbeFailure(cause: "no_audio"))
        }
        var address = url
        for _ in 0..<3 {
            let outcome = probe(address, library: library)
            guard case .failure(let failure) = outcome, let next = failure.redirect else { return outcome }
            address = next
        }
        return .failure(StreamProbeFailure(cause: "no_audio"))
    }

    private func probe(_ address: String, library: StreamLibrary) -> Swift.Result<Result, StreamProbeFailure> {
        let start = ContinuousClock.now
        func elapsed() -> Double {
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var head: StreamConnection.Head?
        var decoder: MP3StreamDecoder?
        var firstAudio: Double?
        var decodedFrames = 0, peak: Float = 0
        var titles: [String?] = []
        var failure: StreamProbeFailure?
        var playlist: [UInt8] = []
        let connection = StreamConnection(url: address, userAgent: userAgent, caFile: caFile)
        let end = connection.run(library: library, onHead: { received in
            head = received
            return true
        }, onAudio: { bytes in
            let type = head?.contentType ?? ""
            if type == "audio/mpeg" || type == "audio/mp3" {
                if decoder == nil { decoder = MP3StreamDecoder(library: library) }
                let ok = decoder?.feed(bytes) { samples, channels in
                    if firstAudio == nil { firstAudio = elapsed() }
                    decodedFrames += samples.count / max(1, channels)
                    for sample in samples { peak = max(peak, abs(sample)) }
                } ?? false
                if !ok { failure = StreamProbeFailure(cause: "undecodable"); return false }
            } else {
                // A playlist (or audio this round does not decode yet): look at its head.
                playlist += bytes
                if playlist.count < 4096 { return true }
                switch StationPlaylist.classify(head: playlist, contentType: type) {
                case .redirect(let next): failure = StreamProbeFailure(cause: "no_audio", redirect: next)
                default: failure = StreamProbeFailure(cause: "undecodable")
                }
                return false
            }
            let second = decoder.map { decodedFrames >= $0.sampleRate } ?? false
            // Icecast's first block to a listener is often an empty title (its burst): a named one
            // is worth waiting for, within the 3 s.
            let titled = head?.metaInterval == nil || titles.contains { !($0 ?? "").isEmpty }
            return !(second && (titled || elapsed() > 3))
        }, onTitle: { titles.append($0) }, shouldStop: { elapsed() > 8 })
        if let failure { return .failure(failure) }
        if case .failed(let cause) = end, firstAudio == nil { return .failure(StreamProbeFailure(cause: cause)) }
        if decoder == nil, !playlist.isEmpty {
            if case .redirect(let next) = StationPlaylist.classify(head: playlist, contentType: head?.contentType) {
                return .failure(StreamProbeFailure(cause: "no_audio", redirect: next))
            }
            return .failure(StreamProbeFailure(cause: "undecodable"))
        }
        guard let decoder, let firstAudio, decodedFrames > 0 else { return .failure(StreamProbeFailure(cause: "no_audio")) }
        guard peak > 0 else { return .failure(StreamProbeFailure(cause: "silent")) }
        return .success(Result(
            firstAudioMilliseconds: Int(firstAudio * 1000), codec: "mp3", bitrateKbps: head?.bitrateKbps,
            sampleRate: decoder.sampleRate, channels: decoder.channels, title: titles.last { !($0 ?? "").isEmpty } ?? nil, peak: peak))
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
