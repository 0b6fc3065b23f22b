/// What one command of a feature puts out beside its result: the publications (events and
/// retained topics, as before) and the effects for the machine to carry out.
public struct FeatureOutput: Sendable, Equatable {
    public var publications: [Publication] = []
    public var effects: [FeatureEffect] = []

    public init(publications: [Publication] = [], effects: [FeatureEffect] = []) {
        self.publications = publications
        self.effects = effects
    }

    /// One command of an owner that keeps no state of its own in the core (the voice, the
    /// buttons, the devices, safe mode): its result, with its output kept only when it succeeds,
    /// as `NodeFeature.handle` keeps a feature's.
    static func answer(
        outbox: inout [Publication], effects: inout [FeatureEffect], _ apply: (inout FeatureOutput) throws(CommandError) -> JSONValue
    ) -> Result<JSONValue, CommandError> {
        var output = FeatureOutput()
        do {
            let result = try apply(&output)
            outbox += output.publications
            effects += output.effects
            return .success(result)
        } catch {
            return .failure(error)
        }
    }
}
