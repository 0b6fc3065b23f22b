/// The whole node as a value: everything it knows and every rule for changing it. The node
/// service owns one, hands it events with the current instant, and carries out what comes back.
/// Being a value, a change that cannot be persisted is rolled back by keeping the old copy.
public struct NodeCore: Sendable {
    public var settings: NodeSettings

    public init(settings: NodeSettings) {
        self.settings = settings
    }

    /// Applies one command. Events to publish go into `outbox`; the response is returned.
    public mutating func handle(_ message: CommandMessage, now: Instant, outbox: inout [Publication]) -> Response {
        let result: Result<JSONValue, CommandError>
        switch message.topic {
        default:
            result = .failure(CommandError(.unknownCommand, "\(message.topic.rawValue) is not available on this node yet"))
        }
        return Response(command: message.topic.rawValue, requestID: message.payload.requestID, outcome: result)
    }

    /// Retained state, topic by topic: published at start, on every reconnect, and when it changes.
    public func retainedState(now: Instant) -> [Publication] {
        []
    }

    /// The state files to keep in `state_dir`, by file name.
    public func persistentState() -> [String: JSONValue] {
        [:]
    }
}
