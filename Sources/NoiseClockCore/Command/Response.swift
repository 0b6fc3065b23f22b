/// The answer to one command, published on `~/response` (and on an MQTT v5 response topic).
public struct Response: Sendable, Equatable {
    public var command: String
    public var requestID: JSONValue?
    public var outcome: Result<JSONValue, CommandError>

    public init(command: String, requestID: JSONValue?, outcome: Result<JSONValue, CommandError>) {
        self.command = command
        self.requestID = requestID
        self.outcome = outcome
    }

    public var ok: Bool { if case .success = outcome { true } else { false } }

    public var json: JSONValue {
        var object = JSONObject([("command", .string(command)), ("ok", .bool(ok)), ("request_id", requestID ?? .null)])
        switch outcome {
        case .success(let result): object["result"] = result
        case .failure(let error): object["error"] = error.json
        }
        return .object(object)
    }
}
