/// An HLS station (RFC 8216): the playlist fetched and fetched again (live reload: every half
/// target duration while nothing is new, never more than once a second), a master playlist's first
/// variant followed (a hop on the stream's `StreamBudget`), each new segment read in turn by
/// `HLSSegmentReader` into one decoder, as one stream. It starts three segments back from the live
/// edge, so a station starts at once with a few seconds in hand, and waits while the player's
/// buffer holds more than `aheadSeconds`. `#EXTINF` titles go out as titles. A segment that gives
/// no audio (a 404 too) is followed by the budget's back-off. Runs on the caller's thread (a
/// player's or a probe's), one connection at a time, each by `StreamConnection`.
final class HLSReader {
    static let aheadSeconds = 6.0
    let url: String
    let userAgent: String
    let caFile: String?
    let stallSeconds: Int
    let budget: StreamBudget

    /// `budget`: the stream's (hops already taken to reach `url`, the back-off); a new one by default.
    init(url: String, userAgent: String, caFile: String? = nil, stallSeconds: Int = 5, budget: StreamBudget? = nil) {
        self.url = url
        self.userAgent = userAgent
        self.caFile = caFile
        self.stallSeconds = stallSeconds
        self.budget = budget ?? StreamBudget(stationURL: url)
    }

    struct Hooks {
        var shouldStop: () -> Bool
        /// Decoded audio the player holds, in seconds (0 for a probe).
        var bufferedSeconds: () -> Double
        var wait: (Double) -> Void
        /// Samples, channels, sample rate, codec.
        var frames: (UnsafeBufferPointer<Float>, Int, Int, String) -> Void
        var title: (String?) -> Void
    }

    /// Plays until stopped, or the station fails (`undecodable`: a playlist out of bounds or naming
    /// itself, too many hops, audio the decoder refuses; a connection's cause; `timeout`, or the
    /// last segment's cause, when no segment gave audio within three target durations); whether
    /// audio was decoded.
    func run(library: StreamLibrary, hooks: Hooks) -> (StreamConnection.End, Bool) {
        var address = url
        var next: Int?
        let segments = HLSSegmentReader(library: library)
        var heard = false, lastTitle: String?
        var lastAudio = ContinuousClock.now
        var lastLoad: ContinuousClock.Instant?
        // The requests the last load took (its redirects too): a second apart each, on average.
        var lastRequests = 1
        // A variant's first load is a hop (its redirects too); `url`'s were the caller's, and a
        // reload takes the way it took before.
        var newHop = false
        while !hooks.shouldStop() {
            if let lastLoad {
                let since = Self.seconds(ContinuousClock.now - lastLoad)
                let interval = StreamLimits.playlistReloadSeconds * Double(lastRequests)
                if since < interval { hooks.wait(interval - since) }
                if hooks.shouldStop() { break }
            }
            lastLoad = .now
            let (text, end, requests) = fetchText(address, hop: newHop, library: library, hooks)
            lastRequests = requests
            newHop = false
            guard let text else { return (end, heard) }
            guard let playlist = try? HLSPlaylist(parsing: text) else { return (.failed("undecodable"), heard) }
            if let variant = playlist.variants.first {
                address = HLSPlaylist.resolve(variant.uri, against: address)
                if budget.hop(to: address) != nil { return (.failed("undecodable"), heard) }
                lastLoad = nil
                newHop = true
                continue
            }
            // Bounded by the playlist (sequence ≤ 2^53, ≤ 10,000 entries): no overflow here.
            let first = playlist.segments.first?.sequence ?? playlist.mediaSequence
            if next == nil || next! < first { next = max(first, first + playlist.segments.count - 3) }
            var fetched = false
            for segment in playlist.segments where segment.sequence >= next! {
                while hooks.bufferedSeconds() > Self.aheadSeconds, !hooks.shouldStop() { hooks.wait(0.25) }
                if hooks.shouldStop() { return (.stopped, heard) }
                if let title = segment.title, title != lastTitle {
                    lastTitle = title
                    hooks.title(title)
                }
                let outcome = segments.read(HLSPlaylist.resolve(segment.uri, against: address), duration: segment.duration, connection: {
                    StreamConnection(url: $0, userAgent: self.userAgent, caFile: self.caFile, stallSeconds: self.stallSeconds)
                }, hooks: hooks)
                if hooks.shouldStop() { return (.stopped, heard) }
                if segments.broken { return (.failed("undecodable"), heard) }
                // A segment gone from the server (a slow reload) is passed over; anything else ends the session.
                if case .failed(let cause) = outcome.end, cause != "http_404", cause != "http_410" { return (outcome.end, heard) }
                next = segment.sequence + 1
                fetched = true
                if outcome.audioSeconds > 0 {
                    heard = true
                    budget.heard()
                    lastAudio = .now
                    continue
                }
                hooks.wait(budget.failed())
                // Segments without audio for as long as none at all would be a stall: the session
                // ends with the last one's cause (an alarm's fallback says `http_404`, not nothing).
                if Self.seconds(ContinuousClock.now - lastAudio) > max(Double(stallSeconds), 3 * playlist.targetDuration) {
                    guard !heard, case .failed(let cause) = outcome.end else { return (.failed(heard ? "stalled" : "no_audio"), heard) }
                    return (.failed(cause), heard)
                }
            }
            if playlist.ended, let last = playlist.segments.last, next! > last.sequence { return (.closed, heard) }
            if !fetched {
                // The target duration is within 1-60 s (`HLSPlaylist`), so these are finite.
                if Self.seconds(ContinuousClock.now - lastAudio) > max(Double(stallSeconds), 3 * playlist.targetDuration) {
                    return (.failed(heard ? "stalled" : "timeout"), heard)
                }
                hooks.wait(max(StreamLimits.playlistReloadSeconds, playlist.targetDuration / 2))
            }
        }
        return (.stopped, heard)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A playlist's text (at most `StreamLimits.playlistBytes`), or why it could not be had. A
    /// hop's HTTP redirects are hops on the budget.
    private func fetchText(
        _ address: String, hop: Bool, library: StreamLibrary, _ hooks: Hooks
    ) -> (String?, StreamConnection.End, requests: Int) {
        var bytes: [UInt8] = []
        let connection = StreamConnection(url: address, userAgent: userAgent, caFile: caFile, stallSeconds: stallSeconds,
                                          maxRedirects: hop ? budget.redirectsLeft : StreamLimits.hops)
        let end = connection.run(
            library: library, onHead: { _ in true }, onAudio: { chunk in
                guard bytes.count + chunk.count <= StreamLimits.playlistBytes else { return false }
                bytes += chunk
                return true
            }, onTitle: { _ in }, shouldStop: hooks.shouldStop)
        let requests = 1 + min(connection.redirects, StreamLimits.hops + 1)
        if hop, budget.redirected(connection.redirects) != nil { return (nil, .failed("undecodable"), requests) }
        guard end == .closed else { return (nil, end == .stopped && !hooks.shouldStop() ? .failed("undecodable") : end, requests) }
        return (String(decoding: bytes, as: UTF8.self), end, requests)
    }
}
