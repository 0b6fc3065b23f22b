/// What a station's stream may state about its audio and its titles, and what reading it may cost
/// (mqtt-api v1.4, "Streams are bounded, whatever the server sends"): one place, read by the
/// player, `station/test` and the readiness probe alike (playlists and hops: `StreamLimits`).
/// A stream that breaks a format rule ends as `undecodable`; a title rule only drops titles.
enum StreamFormatLimits {
    /// As for files (`SoundFormatBounds`): a stream saying 1 Hz had the resampler size 196 M frames
    /// a block (803 MB in 2 s, a whole core), one saying 655,350 Hz spun it likewise.
    static let sampleRates = SoundFormatBounds.sampleRates
    static let channels = SoundFormatBounds.channels
    /// A change of rate or channels rebuilds the resampler: once a second of the stream's audio
    /// at most (a chained Ogg's next track, HE-AAC's first frames), never every frame.
    static let secondsBetweenChanges = 1.0

    /// ICY titles are read only with `icy-metaint` in this range; outside it the metadata is still
    /// cut out of the audio (up to `icyCutIntervals`), but no title is read: `icy-metaint: 1` with
    /// a 4080-byte title after each audio byte took the node 1.1-1.6 cores.
    static let icyTitleIntervals = 256...65536
    static let icyCutIntervals = 1...1_048_576
    /// `~/noise` gets a new title at most this often (the latest wins), cut to `titleScalars`
    /// Unicode scalars: 20,500 retained `~/noise` in 10 s was the flood's cost.
    static let secondsBetweenTitles = 1.0
    static let titleScalars = 256

    /// A connection reads at most this many bytes a second (`StreamConnection.Context.pace`): a live
    /// station sends 8-400 kB/s (hi-res FLAC ~700 kB/s), so this leaves room for a burst, while
    /// bytes that decode to nothing (garbage between frames, metadata floods) cannot keep a core
    /// busy: the rest of a stream's cost is paced by its ring.
    static let maxReceiveBytesPerSecond = 1 << 20
    /// Read at once before the limit applies: an Icecast burst (64 KB) and an HLS segment or two.
    static let receiveBurstBytes = 1 << 20
    /// The limit for the connections of this thread: none for `noiseclock render` (offline, it
    /// reads as fast as it decodes: ten audio hours in two minutes).
    @TaskLocal static var receiveLimit: Int? = maxReceiveBytesPerSecond

    /// Why a stream's `rate` and `channels` are not played, or nil when they may be.
    static func problem(sampleRate: Int, channels: Int) -> String? {
        guard sampleRates.contains(sampleRate) else { return "sample rate \(sampleRate) Hz outside \(sampleRates)" }
        guard Self.channels.contains(channels) else { return "\(channels) channels outside \(Self.channels)" }
        return nil
    }
}
