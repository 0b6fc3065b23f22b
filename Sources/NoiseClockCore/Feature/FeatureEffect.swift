/// What a feature's command asks of the world beyond its publications: the feature decides, the
/// machine carries it out (and, for a command answered later, keeps its reply until then), as a
/// reducer returns effects in The Composable Architecture. A feature never does the I/O itself.
/// No feature asks for one yet: `station/test` is the first to move here (issue 38).
public enum FeatureEffect: Sendable, Equatable {}
