import NoiseClockCore

/// A `POST /api/<command>` with its body read: the command as the one table names it
/// (`CommandName`), the body exactly as MQTT would carry it, and the body's `request_id`, read here
/// once so that every answer echoes it: the adapter's, a refusal, `shutting_down`.
public struct WebCommandRequest: Sendable, Equatable {
    public var name: CommandName
    public var body: [UInt8]
    public var requestID: JSONValue?

    public init(name: CommandName, body: [UInt8], requestID: JSONValue?) {
        self.name = name
        self.body = body
        self.requestID = requestID
    }

    /// The request for a path below `/api/`, or the answer to a name no table has (404, the
    /// `request_id` echoed as the machine echoes an unknown topic's).
    public static func look(up suffix: String, body: [UInt8]) -> Lookup {
        let requestID = CommandPayload.requestID(in: body)
        guard let name = CommandName(rawValue: suffix), name.notOverHTTP == nil else {
            return .unknown(WebRouter.commandResponse(Response(command: suffix, requestID: requestID, outcome: .failure(.unknownCommand(suffix)))))
        }
        return .command(WebCommandRequest(name: name, body: body, requestID: requestID))
    }

    public enum Lookup: Sendable, Equatable {
        case command(WebCommandRequest)
        case unknown(HTTPResponse)
    }

    /// The answer with this request's command and `request_id`.
    public func response(_ outcome: Result<JSONValue, CommandError>) -> Response {
        Response(command: name.rawValue, requestID: requestID, outcome: outcome)
    }

    /// `response(outcome)` as the HTTP reply (`WebRouter.commandResponse`).
    public func answer(_ outcome: Result<JSONValue, CommandError>) -> HTTPResponse {
        WebRouter.commandResponse(response(outcome))
    }

    /// Nil for an empty body or `{"request_id": …}` alone (what `setup/done` and `settings/confirm`
    /// take, as `restart` does); else the refusal, and the command changes nothing.
    public func refusalUnlessEmpty() -> HTTPResponse? {
        let payload = Result { () throws(CommandError) in try CommandPayload.classify(body) }
        switch payload {
        case .failure(let error): return answer(.failure(error))
        case .success(.empty): return nil
        case .success(.json(.object(let object))) where object.keys.allSatisfy({ $0 == "request_id" }): return nil
        case .success: return answer(.failure(CommandError(.invalidField, "\(name.rawValue) takes an empty body or {\"request_id\": …}")))
        }
    }

    /// What the backend did with the request.
    public enum Taken: Sendable, Equatable {
        /// Answered on the server's thread, now.
        case answered(HTTPResponse)
        /// Handed on; the answer comes through `WebServer.reply(_:_:)` with the connection's id.
        case handedOn
        /// Not taken: the node no longer takes commands (answered `shutting_down`).
        case stopping
    }
}
