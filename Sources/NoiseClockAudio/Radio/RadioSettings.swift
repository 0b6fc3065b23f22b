import NoiseClockCore

/// What the engine's stream players need beyond a station's address: the `User-Agent` they
/// send, a CA file they trust besides the system's store, where the titles they read go (called
/// on a player's thread), and where a sleep radio's outages go (called on the audio thread).
struct RadioSettings: Sendable {
    var userAgent: String
    var caFile: String?
    /// `stream.allow_local_addresses` (`StreamAddressRule`).
    var allowsLocalAddresses = false
    var onTitle: @Sendable (_ sound: String, _ title: String?) -> Void
    var onOutage: @Sendable (StationOutage) -> Void = { _ in }
}
