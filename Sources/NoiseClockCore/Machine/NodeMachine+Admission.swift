extension NodeMachine.Draft {
    /// What a command's MQTT message says before its payload is read: over the size cap (only its
    /// size came), or retained. False when the command is answered (or ignored) here.
    mutating func admitted(_ suffix: String, payload: [UInt8], origin: CommandOrigin) -> Bool {
        guard case .mqtt(let message) = origin else { return true }
        if let size = message.oversizeBytes {
            // Over the command cap: the MQTT client kept only the size (nothing was copied).
            effects += machine.respond(Response(command: suffix, requestID: nil, outcome: .failure(.payloadTooLarge(size))), to: origin)
            log(.info, "command refused", ["command": String(suffix.prefix(80)), "code": "payload_too_large", "bytes": "\(size)"])
            return false
        }
        guard message.retain else { return true }
        if message.payload.isEmpty {
            // Someone clearing a retained command, as the refusal below asks: nothing to do.
            log(.debug, "retained command cleared", ["topic": message.topic])
            return false
        }
        // A retained command would run again on every reconnect and restart (an alarm added
        // twice, a volume reset every morning): refuse it and say how to fix it.
        log(.warning, "retained command ignored", ["topic": message.topic])
        let error = CommandError.invalidField(
            "retain",
            "retained commands are ignored: publish commands without the retain flag, and clear this one with an empty retained message")
        let requestID = (try? CommandPayload.classify(payload))?.requestID
        effects += machine.respond(Response(command: suffix, requestID: requestID, outcome: .failure(error)), to: origin)
        return false
    }
}
