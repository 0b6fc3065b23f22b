extension NodeMachine.Draft {
    /// A local button's gesture, a learned key, or a device's status.
    mutating func button(_ input: ButtonInput) {
        switch input {
        case .gesture(let button, let gesture):
            buttonGesture(button, gesture)
        case .learned(let key):
            let event: JSONValue = [
                "button": nil, "gesture": "press", "action": "none", "key": .string(key.name),
                "at": .string(ISO8601.string(now, in: core.settings.zone)),
            ]
            publish("button/event", event.bytes, qos: 1, retain: false)
        case .device(let path, let status):
            machine.buttons.deviceChanged(path, status)
            var metadata = ["device": path]
            if let error = status.error { metadata["error"] = error }  // a connected device has none to report
            log(status.connected ? .info : .warning, status.connected ? "button device connected" : "button device missing", metadata)
            syncRetained()
        }
    }

    /// A message that is not a command: an MQTT button's report, if it is one.
    mutating func buttonMessage(_ message: InboundMessage) {
        guard !message.retain else { return }  // a bridge's retained last state is no press
        for (button, gesture) in machine.buttons.gestures(topic: message.topic, payload: message.payload) {
            buttonGesture(button, gesture)
        }
    }

    /// Publishes `~/button/event`, then runs the gesture's action as a command answered on `~/response`.
    mutating func buttonGesture(_ id: String, _ gesture: ButtonGesture) {
        guard let definition = machine.buttons.definition(id) else { return }
        let action = definition.action(for: gesture)
        let event: JSONValue = [
            "button": .string(id), "gesture": .string(gesture.rawValue), "action": .string(action.description),
            "at": .string(ISO8601.string(now, in: core.settings.zone)),
        ]
        publish("button/event", event.bytes, qos: 1, retain: false)
        log(.info, "button", ["button": id, "gesture": gesture.rawValue, "action": action.description])
        guard let (suffix, payload) = action.command(in: buttonSituation) else { return }
        let origin = InboundMessage(topic: topics.topic(suffix), payload: Array(payload.utf8))
        guard let response = command(suffix, payload: origin.payload, origin: .mqtt(origin)) else { return }
        confirm(button: id, suffix, response)
    }

    /// `speech.confirm_buttons`: says what the button's command did, after it succeeded.
    mutating func confirm(button: String, _ suffix: String, _ response: Response) {
        guard machine.speech.enabled, machine.speech.confirmButtons, case .success(let result) = response.outcome,
              let text = ButtonConfirmation.text(command: suffix, result: result, after: core)
        else { return }
        let id = machine.nextSpeechID
        machine.nextSpeechID += 1
        effects.append(.speak(SpeechRequest(id: id, text: text, volume: machine.speech.volume)))
        log(.info, "button confirmation", ["button": button, "text": text, "speech": "\(id)"])
    }

    var buttonSituation: ButtonSituation {
        let next = core.routines.routines.filter(\.enabled).compactMap { routine in
            core.routines.plans[routine.id].map { (routine.id, $0) }
        }.min { $0.1 < $1.1 }?.0
        return ButtonSituation(
            ringing: core.alarms.ring?.phase == .ringing, noiseVolume: core.noise.state.volume,
            routineActive: core.routines.active != nil, nextRoutine: next ?? core.routines.routines.first { $0.enabled }?.id)
    }

    /// `~/buttons/learn`: every key of every local device is reported for 30 s.
    mutating func learnButtons(_ payload: CommandPayload, reply: DeferredReply) {
        do throws(CommandError) {
            try MachineCommand.learnButtons.requireEmpty(payload)
        } catch {
            refuse(reply, error)
            return
        }
        guard machine.buttons.hasInputDevices else {
            refuse(reply, CommandError(.notFound, "no button reads a local input device (buttons[].input): there is nothing to learn from"))
            return
        }
        effects.append(.learnButtons(seconds: ButtonBoard.learnSeconds))
        let result: JSONValue = ["seconds": .int(Int64(ButtonBoard.learnSeconds))]
        effects += machine.respond(reply.response(.success(result)), to: reply.origin)
        log(.info, "command", ["command": reply.command, "ok": "true"])
    }
}

extension ButtonBoard {
    /// `~/buttons` when any button is configured (a node without buttons does not publish it).
    public var retainedList: [Publication] { definitions.isEmpty ? [] : [retained] }
}
