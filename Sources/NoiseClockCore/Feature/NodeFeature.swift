/// The shape every feature of the node has (alarms, style, noise, routines, timers, mixes). A
/// feature is a value: it answers its own commands, moves forward in time, says when it next
/// needs waking, what it publishes retained and what it keeps on disk. It never does I/O.
///
/// Adding a feature (docs/extending.md walks through it, copying `MixesFeature`): one folder
/// with the type and its `Command` enum, a case in `FeatureID` and in `CommandTopic`, and a stored
/// property in `NodeCore`; the compiler then names every `switch` that must learn it.
public protocol NodeFeature: Sendable, Equatable {
    /// This feature's commands.
    associatedtype Command: FeatureCommand

    /// The state file this feature owns in `state_dir`, if any.
    static var stateFile: String? { get }

    /// Carries out one command on a copy that has already advanced to `context.now` (see
    /// `handle`): change `self`, put events in `output.publications` and what the world must do
    /// in `output.effects` (`FeatureEffect`: the machine carries it out), return the result.
    /// Throwing refuses the command, and nothing of the copy or the output is kept. A command that
    /// changes nothing leaves the value equal, so nothing is written or published but the response.
    mutating func apply(
        _ command: Command, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue

    /// Fires whatever fell due by `context.now`.
    mutating func advance(context: FeatureContext, outbox: inout [Publication])

    /// The system clock was set: forget plans made on the old clock (most features keep none).
    mutating func clockChanged(context: FeatureContext, outbox: inout [Publication])

    /// The earliest instant this feature needs to be advanced at, if any.
    func nextDeadline(context: FeatureContext) -> Instant?

    /// Retained topics, relative to `~/`.
    func retained(context: FeatureContext) -> [Publication]

    /// The content of `stateFile` (nil: nothing to keep).
    var persistent: JSONValue? { get }
}

extension NodeFeature {
    public mutating func clockChanged(context: FeatureContext, outbox: inout [Publication]) {}

    /// Whether `other` is this very value: what it publishes and keeps is then the same too
    /// (`retained` and `persistent` depend only on the value and the node's settings).
    public func isSame(as other: (any NodeFeature)?) -> Bool { (other as? Self) == self }

    /// The one way a command is handled: a transaction on a copy. First whatever fell due before
    /// it (so an edit at 07:00:00.3 cannot re-plan past a 07:00 occurrence the wake-up timer has
    /// not delivered yet), then `apply`. The feature, the outbox and the effects change only when
    /// `apply` succeeds.
    public mutating func handle(
        _ command: Command, _ payload: CommandPayload, context: FeatureContext, outbox: inout [Publication],
        effects: inout [FeatureEffect]
    ) -> Result<JSONValue, CommandError> {
        var copy = self
        var output = FeatureOutput()
        copy.advance(context: context, outbox: &output.publications)
        do {
            let result = try copy.apply(command, payload, context: context, output: &output)
            self = copy
            outbox += output.publications
            effects += output.effects
            return .success(result)
        } catch {
            return .failure(error)
        }
    }
}

/// Every feature of the node, in the order their timing and retained topics go out.
public enum FeatureID: String, Sendable, CaseIterable {
    case alarms, style, noise, routines, timers, mixes, light, stations
}
