/// What a feature's command asks of the world beyond its publications: the feature decides, the
/// machine carries it out (and, for a command answered later, keeps its reply until then), as a
/// reducer returns effects in The Composable Architecture. A feature never does the I/O itself.
public enum FeatureEffect: Sendable, Equatable {
    /// `station/test`: probe this address (connect, decode a second); the command is answered
    /// when the probe comes back (`NodeEffect.probeStation`, bounded by `StationProbes`).
    case probeStation(url: String)
    /// v1.4: a station was added with this `directory_id`: the directory is told of the choice,
    /// as it asks its clients to (`NodeEffect.tellDirectory`, once, unanswered).
    case tellDirectory(id: String)
    /// `alarm/check`: answered with the next readiness check's result (`~/alarm` `ready`), which
    /// the machine starts at once (`NodeEffect.checkReadiness`, one for every waiting command).
    case checkReadiness

    /// Whether the command is answered when the effect is done, not at once.
    public var answersLater: Bool {
        switch self {
        case .probeStation, .checkReadiness: true
        case .tellDirectory: false
        }
    }
}
