/// An HLS station (RFC 8216): the playlist fetched and fetched again (live reload: every half
/// target duration while nothing is new), a master playlist's first variant followed, each new
/// segment fetched in turn (MPEG-TS through `MPEGTSDemuxer`, or packed ADTS/MP3 audio) into one
/// decoder, as one stream. It starts three segments back from the live edge, so a station starts
/// at once with a few seconds in hand, and waits while the player's buffer holds more than
/// `aheadSeconds`. `#EXTINF` titles go out as titles. Runs on the caller's thread (a player's or a
/// probe's), one connection at a time, each by `StreamConnection`.
final class HLSReader {
    static let aheadSeconds = 6.0
    static let maxPlaylistBytes = 1 << 20
    let url: String
    let userAgent: String
    let caFile: String?
    let stallSeconds: Int

    init(url: String, userAgent: String, caFile: String? = nil, stallSeconds: Int = 5) {
        self.url = url
        self.userAgent = userAgent
        self.caFile = caFile
        self.stallSeconds = stallSeconds
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

    /// Plays until stopped, or the station fails (`undecodable`, a connection's cause, `timeout`
    /// when no new segment came within three target durations); whether audio was decoded.
    func run(library: StreamLibrary, hooks: Hooks) -> (StreamConnection.End, Bool) {
        var address = url
        var next: Int?
        let demuxer = MPEGTSDemuxer()
        var decoder: (any StreamDecoder)?
        var heard = false, lastTitle: String?
        var lastNew = ContinuousClock.now
        while !hooks.shouldStop() {
            let (text, end) = fetchText(address, library: library, hooks)
            guard let text else { return (end, heard) }
            guard let playlist = HLSPlaylist(text) else { return (.failed("undecodable"), heard) }
            if let variant = playlist.variants.first {
                address = HLSPlaylist.resolve(variant.uri, against: address)
                continue
            }
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
                var packed: [UInt8] = []
                var broken = false
                let end = StreamConnection(url: HLSPlaylist.resolve(segment.uri, against: address), userAgent: userAgent, caFile: caFile,
                                           stallSeconds: stallSeconds).run(library: library, onHead: { _ in true }, onAudio: { bytes in
                    if !packed.isEmpty || (demuxer.audioPID == nil && bytes.first != 0x47) {
                        packed += bytes
                        return true
                    }
                    let ok = demuxer.feed(bytes) { audio in
                        if decoder == nil, let format = demuxer.format { decoder = format.decoder(library: library) }
                        guard let current = decoder, !broken else {
                            broken = true
                            return
                        }
                        broken = !current.feed(audio, frames: { samples, channels in
                            heard = true
                            hooks.frames(samples, channels, current.sampleRate, current.codec)
                        }, title: hooks.title)
                    }
                    return ok && !broken && !hooks.shouldStop()
                }, onTitle: { _ in }, shouldStop: hooks.shouldStop)
                if hooks.shouldStop() { return (.stopped, heard) }
                if !packed.isEmpty { broken = !feedPacked(packed, decoder: &decoder, library: library, heard: &heard, hooks) }
                if broken { return (.failed("undecodable"), heard) }
                // A segment gone from the server (a slow reload) is passed over; anything else ends the session.
                if case .failed(let cause) = end, cause != "http_404", cause != "http_410" { return (end, heard) }
                next = segment.sequence + 1
                fetched = true
                lastNew = .now
            }
            if playlist.ended, let last = playlist.segments.last, next! > last.sequence { return (.closed, heard) }
            if !fetched {
                if ContinuousClock.now - lastNew > .seconds(max(Double(stallSeconds), 3 * playlist.targetDuration)) {
                    return (.failed(heard ? "stalled" : "timeout"), heard)
                }
                hooks.wait(max(0.5, playlist.targetDuration / 2))
            }
        }
        return (.stopped, heard)
    }

    /// A playlist's text, or why it could not be had.
    private func fetchText(_ address: String, library: StreamLibrary, _ hooks: Hooks) -> (String?, StreamConnection.End) {
        var bytes: [UInt8] = []
        let end = StreamConnection(url: address, userAgent: userAgent, caFile: caFile, stallSeconds: stallSeconds).run(
            library: library, onHead: { _ in true }, onAudio: { chunk in
                bytes += chunk
                return bytes.count <= Self.maxPlaylistBytes
            }, onTitle: { _ in }, shouldStop: hooks.shouldStop)
        guard end == .closed else { return (nil, end == .stopped && !hooks.shouldStop() ? .failed("undecodable") : end) }
        return (String(decoding: bytes, as: UTF8.self), end)
    }

    /// A packed-audio segment (ADTS or MP3 after an ID3 tag with its timestamp), fed whole.
    private func feedPacked(
        _ bytes: [UInt8], decoder: inout (any StreamDecoder)?, library: StreamLibrary, heard: inout Bool, _ hooks: Hooks
    ) -> Bool {
        var start = 0
        if bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)) {
            start = 10 + (Int(bytes[6] & 0x7F) << 21 | Int(bytes[7] & 0x7F) << 14 | Int(bytes[8] & 0x7F) << 7 | Int(bytes[9] & 0x7F))
        }
        guard start < bytes.count else { return true }
        if decoder == nil { decoder = StreamFormat.sniff(Array(bytes[start..<min(bytes.count, start + 4096)]))?.decoder(library: library) }
        guard let current = decoder else { return false }
        var got = false
        let ok = bytes[start...].withUnsafeBytes {
            current.feed($0, frames: { samples, channels in
                got = true
                hooks.frames(samples, channels, current.sampleRate, current.codec)
            }, title: hooks.title)
        }
        heard = heard || got
        return ok
    }
}
