/// A command answered after the input that brought it (speech, `alarm/check`, `station/test`,
/// `devices/test`): what its answer needs, kept until then, so the answer names the command and
/// echoes its `request_id`.
struct DeferredReply: Sendable {
    var command: String
    var requestID: JSONValue?
    var origin: CommandOrigin

    func response(_ outcome: Result<JSONValue, CommandError>) -> Response {
        Response(command: command, requestID: requestID, outcome: outcome)
    }
}
