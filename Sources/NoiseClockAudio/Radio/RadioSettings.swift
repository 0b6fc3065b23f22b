import NoiseClockCore

/// What the engine's stream players need beyond a station's address: the `User-Agent` they
/// send, and where the titles they read go (called on a player's thread).
struct RadioSettings: Sendable {
    var userAgent: String
    var onTitle: @Sendable (_ sound: String, _ title: String?) -> Void
}
