/// A command as it reached the node: which command, and its classified payload.
public struct CommandMessage: Sendable, Equatable {
    public var topic: CommandTopic
    public var payload: CommandPayload

    public init(topic: CommandTopic, payload: CommandPayload) {
        self.topic = topic
        self.payload = payload
    }

    /// Parses a command topic suffix (`alarm/add`) and raw payload. A failure is already the
    /// response to publish: it names the command (or the topic as given) and any request id.
    public enum Parsed: Sendable, Equatable {
        case command(CommandMessage)
        case refused(Response)
    }

    public static func parse(topic suffix: String, payload bytes: [UInt8]) -> Parsed {
        let name = CommandName(rawValue: suffix)
        let payload: CommandPayload
        do {
            let freeText = if case .feature(let topic)? = name { topic.takesFreeText } else { false }
            payload = try CommandPayload.classify(bytes, freeText: freeText)
        } catch {
            return .refused(Response(command: suffix, requestID: nil, outcome: .failure(error)))
        }
        switch name {
        case .feature(let topic)?: return .command(CommandMessage(topic: topic, payload: payload))
        case .web(let command)?:
            let error = CommandError(.unknownCommand, "\(suffix) is taken as POST /api/\(suffix) only: it \(command.notOverMQTT)")
            return .refused(Response(command: suffix, requestID: payload.requestID, outcome: .failure(error)))
        case nil:
            return .refused(Response(command: suffix, requestID: payload.requestID, outcome: .failure(.unknownCommand(suffix))))
        }
    }
}
