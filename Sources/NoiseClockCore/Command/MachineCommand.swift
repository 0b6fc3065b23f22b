/// The commands the machine answers itself, later: speech (answered once the utterance is made)
/// and learning buttons. They are looked up, and their payloads classified, in the same place as
/// every feature command (`CommandMessage.parse`: the 64 KiB bound, UTF-8, JSON), so each answer
/// echoes the command's `request_id`; no command name is compared as a string elsewhere.
public enum MachineCommand: String, Sendable, CaseIterable {
    case say
    case speakTime = "speak/time"
    case speakNextAlarm = "speak/next_alarm"
    case learnButtons = "buttons/learn"
    /// Settings (v1.3): asks the lamp or the shaker's plug for its state, answered with its word.
    case deviceTest = "devices/test"
    /// Safe mode (v1.4): the crash count cleared and the node started again, normally.
    case safeModeExit = "safe_mode/exit"

    /// `say` takes plain text or an object: text that starts with a quote or a bracket is text.
    public var takesFreeText: Bool { self == .say }

    /// An empty payload, or an object holding only `request_id` (as `alarm/check` takes).
    public func requireEmpty(_ payload: CommandPayload) throws(CommandError) {
        switch payload {
        case .empty: return
        case .json(.object(let object)) where object.keys.allSatisfy({ $0 == "request_id" }): return
        default: throw CommandError(.invalidField, "\(rawValue) takes an empty payload")
        }
    }
}

/// A command answered after the input that brought it (speech, `alarm/check`): what its answer
/// needs, kept until then, so the answer names the command and echoes its `request_id`.
struct DeferredReply: Sendable {
    var command: String
    var requestID: JSONValue?
    var origin: CommandOrigin

    func response(_ outcome: Result<JSONValue, CommandError>) -> Response {
        Response(command: command, requestID: requestID, outcome: outcome)
    }
}
