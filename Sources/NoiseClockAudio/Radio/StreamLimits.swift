/// The bounds a stream is held to whatever its server sends (mqtt-api v1.4, "Streams are bounded"),
/// in one place: the player, `station/test` and the readiness probe all draw on them (through
/// `StreamBudget`, `HLSPlaylist` and `HLSReader`). This file holds the playlists', segments', hops'
/// and requests' bounds; the formats' and titles' have a file of their own.
enum StreamLimits {
    // MARK: Numbers in HLS playlists (checked before any arithmetic: Swift traps on overflow)

    /// `#EXT-X-TARGETDURATION`, seconds.
    static let targetDurationSeconds: ClosedRange<Double> = 1...60
    /// `#EXTINF`: above 0, at most this many seconds.
    static let segmentMaxSeconds = 60.0
    /// `#EXT-X-MEDIA-SEQUENCE` (2^53: a double's exact integers, as JavaScript's players allow).
    static let mediaSequence: ClosedRange<Int> = 0...(1 << 53)

    // MARK: Sizes

    /// A playlist body (m3u8, m3u, pls): more ends the stream.
    static let playlistBytes = 1 << 20
    /// A playlist's entries (segments or variants).
    static let playlistEntries = 10_000
    /// An HLS segment is read to this many bytes, or `segmentAudioFactor` times its `#EXTINF` in
    /// decoded audio, then cut (the next one is read): a segment that never ends costs no memory.
    static let segmentBytes = 16 << 20
    static let segmentAudioFactor = 2.0

    // MARK: Hops and requests

    /// Playlist, variant or HTTP-redirect hops from the station's URL.
    static let hops = 3
    /// The wait after a request that ended without audio: doubling from the first to the most,
    /// back to the first once audio is heard.
    static let backOffFirstSeconds = 1.0
    static let backOffMostSeconds = 5.0
    /// A playlist is loaded again no sooner than this after its last load began.
    static let playlistReloadSeconds = 1.0
}
