import Testing
@testable import NoiseClockCore

/// The tests of features that ask for no effect (`FeatureEffect`) keep the shape they had: these
/// take the publications only, and a command that did ask for an effect is a failed test, so no
/// effect is dropped unseen.
extension NodeFeature {
    mutating func handle(
        _ command: Command, _ payload: CommandPayload, context: FeatureContext, outbox: inout [Publication]
    ) -> Result<JSONValue, CommandError> {
        var effects: [FeatureEffect] = []
        defer { #expect(effects.isEmpty, "\(command.rawValue) asked for \(effects)") }
        return handle(command, payload, context: context, outbox: &outbox, effects: &effects)
    }
}

extension NodeCore {
    mutating func handle(_ message: CommandMessage, now: Instant, outbox: inout [Publication], fromGroup: Bool = false) -> Response {
        var effects: [FeatureEffect] = []
        defer { #expect(effects.isEmpty, "\(message.topic.rawValue) asked for \(effects)") }
        return handle(message, now: now, outbox: &outbox, effects: &effects, fromGroup: fromGroup)
    }
}
