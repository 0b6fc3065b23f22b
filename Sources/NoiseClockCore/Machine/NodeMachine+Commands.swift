/// The one command path: every command (MQTT, a group's, the web app's, a button's) is looked up
/// in the command table once (`CommandMessage.parse`), then handed to the feature that owns it
/// through the core (`NodeCore.handle`), whose effects the machine carries out
/// (`NodeMachine+FeatureEffects`); a command answered later keeps a `DeferredReply` that carries
/// its `request_id`. No command is handled here by name.
extension NodeMachine.Draft {
    /// Returns the response when the command took effect (a button's confirmation is made from it).
    @discardableResult
    mutating func command(_ suffix: String, payload: [UInt8], origin: CommandOrigin) -> Response? {
        guard admitted(suffix, payload: payload, origin: origin) else { return nil }
        var next = core
        var outbox: [Publication] = []
        var asked: [FeatureEffect] = []
        let response: Response
        switch CommandMessage.parse(topic: suffix, payload: payload) {
        case .refused(let refusal): response = refusal
        case .command(let command):
            response = next.handle(command, now: now, outbox: &outbox, effects: &asked)
        }
        switch response.outcome {
        case .success:
            // What the effects draw on first: a command refused there changes nothing.
            let reply = DeferredReply(command: suffix, requestID: response.requestID, origin: origin)
            if let error = unavailable(asked, origin: origin) {
                refuse(reply, error)
                return nil
            }
            let answersLater = asked.contains(where: \.answersLater)
            refusal = NodePlan.Refusal(command: response.command, requestID: response.requestID, origin: origin)
            commit(next, outbox: outbox, response: answersLater ? nil : (response, origin))
            carryOut(asked, reply: reply)
            log(.info, "command", ["command": suffix, "ok": answersLater ? "pending" : "true"])
            return answersLater ? nil : response
        case .failure(let error):
            effects += machine.respond(response, to: origin)
            log(.info, "command refused", ["command": String(suffix.prefix(80)), "code": error.code.rawValue, "message": error.message])
            return nil
        }
    }

    /// Answers a command's refusal at once (it changed nothing).
    mutating func refuse(_ reply: DeferredReply, _ error: CommandError) {
        effects += machine.respond(reply.response(.failure(error)), to: reply.origin)
        log(.info, "command refused", ["command": reply.command, "code": error.code.rawValue, "message": error.message])
    }
}
