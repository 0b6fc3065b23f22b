/// What a feature's command asks of the world beyond its publications: the feature decides, the
/// machine carries it out (and, for a command answered later, keeps its reply until then), as a
/// reducer returns effects in The Composable Architecture. A feature never does the I/O itself.
public enum FeatureEffect: Sendable, Equatable {
    /// `station/test`: probe this address (connect, decode a second); the command is answered
    /// when the probe comes back (`NodeEffect.probeStation`, bounded by `StationProbes`).
    case probeStation(url: String)
}
