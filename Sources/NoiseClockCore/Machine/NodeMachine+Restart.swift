extension NodeMachine.Draft {
    /// `POST /api/restart` (http-api v1.4): an empty body or `{"request_id": …}`, answered first
    /// (`{"restarting": true}`, the request id echoed), then `NodeEffect.restart`: the process stops
    /// cleanly (every state file is written by the time a plan's effects run) and starts again.
    /// Anything else in the body is refused (its request id echoed) and the node stays.
    mutating func restart(_ request: LocalRequest) {
        let origin = CommandOrigin.local(request.id)
        let payload = Result { () throws(CommandError) in try CommandPayload.classify(request.payload) }
        let requestID = request.requestID
        let outcome: Result<JSONValue, CommandError>
        switch payload {
        case .success(.empty): outcome = .success(["restarting": .bool(true)])
        case .success(.json(.object(let object))) where object.keys.allSatisfy({ $0 == "request_id" }):
            outcome = .success(["restarting": .bool(true)])
        case .success: outcome = .failure(CommandError(.invalidField, "restart takes an empty body or {\"request_id\": …}"))
        case .failure(let error): outcome = .failure(error)
        }
        effects += machine.respond(Response(command: request.command, requestID: requestID, outcome: outcome), to: origin)
        guard case .success = outcome else {
            if case .failure(let error) = outcome {
                log(.info, "command refused", ["command": request.command, "code": error.code.rawValue, "message": error.message])
            }
            return
        }
        log(.notice, "restarting, as the web app asked: the node stops cleanly and starts again", [:])
        effects.append(.restart)
    }
}
