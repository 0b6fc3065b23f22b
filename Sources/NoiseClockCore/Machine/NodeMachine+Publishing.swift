/// How a draft tells the world: MQTT publications under the node's root (each also shown to the
/// web app), the audio scene, and log lines (which go last).
extension NodeMachine.Draft {
    mutating func publishIfChanged(_ publication: Publication) {
        let bytes = publication.body.bytes
        guard machine.lastRetained[publication.topic] != bytes else { return }
        if machine.online {
            publish(publication.topic, bytes, qos: publication.qos, retain: true)
        } else {
            observe(publication.topic, bytes)
        }
        machine.lastRetained[publication.topic] = bytes
    }

    mutating func updateAudio() {
        let scene = core.audioScene(now: now)
        guard scene != machine.lastScene else { return }
        machine.lastScene = scene
        effects.append(.play(scene))
    }

    /// Deletes a retained topic of the node's (an empty retained payload), once a connection (the
    /// web app sees the empty payload too, as "none").
    mutating func clearRetained(_ topic: String) {
        guard machine.online, machine.lastRetained[topic] != [] else { return }
        publish(topic, [], qos: 1, retain: true)
        machine.lastRetained[topic] = []
    }

    /// Publishes under the node's own root (`~/topic`).
    mutating func publish(_ topic: String, _ bytes: [UInt8], qos: Int32, retain: Bool) {
        effects.append(.publish(OutboundMessage(topic: topics.topic(topic), payload: bytes, qos: qos, retain: retain)))
        observe(topic, bytes)
    }

    /// Tells the web app, when there is one.
    mutating func observe(_ topic: String, _ bytes: [UInt8]) {
        guard machine.observed else { return }
        effects.append(.observe(Observation(suffix: topic, payload: bytes)))
    }

    mutating func publishAbsolute(_ topic: String, _ bytes: [UInt8]) {
        effects.append(.publish(OutboundMessage(topic: topic, payload: bytes, qos: 1, retain: true)))
    }

    mutating func log(_ level: LogRecord.Level, _ message: String, _ metadata: [String: String] = [:]) {
        logs.append(.log(LogRecord(level, message, metadata)))
    }
}

extension NodeMachine {
    /// The response on `~/response` (and on an MQTT v5 response topic), or the reply to a local request.
    func respond(_ response: Response, to origin: CommandOrigin) -> [NodeEffect] {
        switch origin {
        case .local(let id):
            return [.reply(requestID: id, response)]
        case .mqtt(let message):
            let bytes = response.json.bytes
            var effects: [NodeEffect] = [.publish(OutboundMessage(topic: topics.topic("response"), payload: bytes, qos: 1, retain: false))]
            if observed { effects.append(.observe(Observation(suffix: "response", payload: bytes))) }
            if let reply = message.responseTopic, !reply.isEmpty, !reply.contains("+"), !reply.contains("#") {
                let answer = OutboundMessage(topic: reply, payload: bytes, qos: 1, retain: false, correlationData: message.correlationData)
                effects.append(.publish(answer))
            }
            return effects
        }
    }
}
