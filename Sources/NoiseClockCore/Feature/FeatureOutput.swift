/// What one command of a feature puts out beside its result: the publications (events and
/// retained topics, as before) and the effects for the machine to carry out.
public struct FeatureOutput: Sendable, Equatable {
    public var publications: [Publication] = []
    public var effects: [FeatureEffect] = []

    public init(publications: [Publication] = [], effects: [FeatureEffect] = []) {
        self.publications = publications
        self.effects = effects
    }
}
