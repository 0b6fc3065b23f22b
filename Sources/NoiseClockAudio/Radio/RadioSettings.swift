import NoiseClockCore

/// What the engine's stream players need beyond a station's address: the `User-Agent` they
/// send, a CA file they trust besides the system's store, where the titles they read go (called
/// on a player's thread), and where a sleep radio's outages go.
struct RadioSettings: Sendable {
    var userAgent: String
    var caFile: String?
    /// `stream.allow_local_addresses` (`StreamAddressRule`).
    var allowsLocalAddresses = false
    var onTitle: @Sendable (_ sound: String, _ title: String?) -> Void
    /// From any thread but the audio thread (a released source's farewell).
    var onOutage: @Sendable (StationOutage) -> Void = { _ in }
    /// From the audio thread: must not wait (the engine's pushes to `AudioHandoff`).
    var onRenderedOutage: @Sendable (StationOutage) -> Void = { _ in }
}
