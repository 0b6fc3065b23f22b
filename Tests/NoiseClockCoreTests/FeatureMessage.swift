@testable import NoiseClockCore

/// A command as the feature tests write it: one of the feature's commands and its payload.
struct FeatureMessage<Command: FeatureCommand> {
    var command: Command
    var payload: CommandPayload

    /// The payload's text classified as the node does it; a test payload that cannot be is a bug in the test.
    init(_ command: Command, _ text: String) {
        self.command = command
        do {
            payload = try CommandPayload.classify(Array(text.utf8))
        } catch {
            fatalError("test payload did not classify: \(text)")
        }
    }
}

extension NodeFeature {
    /// `handle(_:_:context:outbox:)` for a `FeatureMessage`.
    mutating func handle(_ message: FeatureMessage<Command>, context: FeatureContext,
        outbox: inout [Publication]) -> Result<JSONValue, CommandError> {
        handle(message.command, message.payload, context: context, outbox: &outbox)
    }
}
