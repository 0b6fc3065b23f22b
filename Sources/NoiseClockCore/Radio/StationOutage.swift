/// A station playing as noise has been without audio for 10 s (it dropped, stalls, or plays only
/// digital silence): the engine covers it with `stream.fallback_noise` and reports it, and again
/// when the station is heard again. `~/noise` says `error` while it is down.
public struct StationOutage: Sendable, Equatable {
    /// The station's sound id (`radio:<id>`).
    public var sound: String
    /// Why it cannot be heard (a contract cause: `refused`, `stalled`, `silent`, …); nil: it is back.
    public var cause: String?
    /// What covers it (`stream.fallback_noise`), nil: silence.
    public var fallback: String?

    public init(sound: String, cause: String?, fallback: String? = nil) {
        self.sound = sound
        self.cause = cause
        self.fallback = fallback
    }

    /// `~/noise`'s `error` while the station is down.
    public var message: String? {
        guard let cause else { return nil }
        let covered = fallback.map { "playing \($0) until it returns" } ?? "silent until it returns"
        return "station \"\(Station.stationID(ofSound: sound) ?? sound)\" is down (\(StreamFallback.normalised(cause))); \(covered)"
    }
}
