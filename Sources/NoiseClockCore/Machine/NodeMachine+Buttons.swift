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
            machine.features.buttons.deviceChanged(path, status)
            var metadata = ["device": path]
            if let error = status.error { metadata["error"] = error }  // a connected device has none to report
            log(status.connected ? .info : .warning, status.connected ? "button device connected" : "button device missing", metadata)
            syncRetained()
        }
    }

    /// A message that is not a command: an MQTT button's report, if it is one.
    mutating func buttonMessage(_ message: InboundMessage) {
        guard !message.retain else { return }  // a bridge's retained last state is no press
        for (button, gesture) in machine.features.buttons.gestures(topic: message.topic, payload: message.payload) {
            buttonGesture(button, gesture)
        }
    }

    /// Publishes `~/button/event`, then runs the gesture's action as a command answered on `~/response`.
    mutating func buttonGesture(_ id: String, _ gesture: ButtonGesture) {
        guard let definition = machine.features.buttons.definition(id) else { return }
        let action = definition.action(for: gesture)
        let event: JSONValue = [
            "button": .string(id), "gesture": .string(gesture.rawValue), "action": .string(action.description),
            "at": .string(ISO8601.string(now, in: core.settings.zone)),
        ]
        publish("button/event", event.bytes, qos: 1, retain: false)
        log(.info, "button", ["button": id, "gesture": gesture.rawValue, "action": action.description])
        guard let (name, payload) = action.command(in: buttonSituation) else { return }
        let suffix = name.rawValue
        let origin = InboundMessage(topic: topics.topic(suffix), payload: Array(payload.utf8))
        let before = core
        guard let response = command(suffix, payload: origin.payload, origin: .mqtt(origin)) else { return }
        confirm(button: id, name, before: before, response)
    }

    /// `speech.confirm_buttons`: says what the button's command did, after it succeeded.
    mutating func confirm(button: String, _ command: CommandName, before: NodeCore, _ response: Response) {
        let settings = machine.features.speaker.settings
        guard settings.enabled, settings.confirmButtons, response.ok,
              let confirmation = ButtonConfirmation(command, before: before, after: core)
        else { return }
        let text = confirmation.text(speechContext)
        let request = machine.features.speaker.utter(text)
        effects.append(.speak(request))
        log(.info, "button confirmation", ["button": button, "text": text, "speech": "\(request.id)"])
    }

    var buttonSituation: ButtonSituation {
        ButtonSituation(ringing: core.alarms.ring?.phase == .ringing, noiseVolume: core.noise.state.volume, routines: core.routines.planSummary)
    }
}
