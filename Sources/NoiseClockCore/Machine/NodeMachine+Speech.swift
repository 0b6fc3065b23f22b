extension NodeMachine.Draft {
    /// `~/say`, `~/speak/time`, `~/speak/next_alarm`: the text is decided here, the speaking is the
    /// adapter's (`NodeEffect.speak`); the command is answered `{"text", "seconds"}` once spoken,
    /// through its `DeferredReply` (so with its `request_id`).
    mutating func speak(_ parsed: Result<SpeechCommand, CommandError>, reply: DeferredReply) {
        let command: SpeechCommand
        switch parsed {
        case .failure(let error):
            refuse(reply, error)
            return
        case .success(let value): command = value
        }
        guard machine.speech.enabled else {
            refuse(reply, CommandError(.speechUnavailable, "speech is off (speech.enabled: false)"))
            return
        }
        if let audio = core.audioStatus, audio.state == .unavailable {
            let reason = audio.error ?? "unavailable"
            refuse(reply, CommandError(.audioUnavailable, "the sound device cannot be opened, so the words cannot be heard: \(reason)"))
            return
        }
        let (text, volume) = speechText(command)
        let id = machine.nextSpeechID
        machine.nextSpeechID += 1
        machine.pendingSpeech[id] = PendingSpeech(reply: reply, text: text)
        effects.append(.speak(SpeechRequest(id: id, text: text, volume: volume ?? machine.speech.volume)))
        log(.info, "speak", ["command": reply.command, "text": String(text.prefix(80))])
    }

    /// Answers a deferred command's refusal at once (it changed nothing).
    mutating func refuse(_ reply: DeferredReply, _ error: CommandError) {
        effects += machine.respond(reply.response(.failure(error)), to: reply.origin)
        log(.info, "command refused", ["command": reply.command, "code": error.code.rawValue, "message": error.message])
    }

    /// What to say, in the node's locale and the clock's 12/24-hour style.
    func speechText(_ command: SpeechCommand) -> (String, Int?) {
        let zone = core.settings.zone
        let locale = core.settings.locale
        let use24Hour = core.style.style.use24Hour
        switch command {
        case .say(let text, let volume):
            return (text, volume)
        case .speakTime:
            return (SpeechPhrases.time(zone.local(at: now), locale: locale, use24Hour: use24Hour), nil)
        case .speakNextAlarm:
            var best: (Alarm, Instant)?
            for alarm in core.alarms.book.alarms {
                guard let at = core.alarms.nextTrigger(of: alarm, zone: zone) else { continue }
                if best == nil || at < best!.1 { best = (alarm, at) }
            }
            let text = SpeechPhrases.nextAlarm(
                best.map { zone.local(at: $0.1) }, today: zone.local(at: now).date, label: best?.0.label, locale: locale, use24Hour: use24Hour)
            return (text, nil)
        }
    }

    /// The adapter spoke (or could not): the waiting command is answered now.
    mutating func spoken(_ outcome: SpeechOutcome) {
        speechWorked(outcome.id, outcome.result)
        guard let pending = machine.pendingSpeech.removeValue(forKey: outcome.id) else { return }
        let result: Result<JSONValue, CommandError>
        switch outcome.result {
        case .success(let seconds):
            let rounded = (seconds * 100).rounded() / 100
            result = .success(.object(JSONObject([("text", .string(pending.text)), ("seconds", .double(rounded))])))
        case .failure(let failure):
            result = .failure(CommandError(.speechUnavailable, failure.message))
        }
        effects += machine.respond(pending.reply.response(result), to: pending.reply.origin)
    }

    /// `~/speech` follows what the last utterance (a command's, an alarm's, a button's) came to.
    mutating func speechWorked(_ id: UInt64, _ result: Result<Double, SpeechFailure>) {
        switch result {
        case .success(let seconds):
            machine.speechStatus.error = nil
            log(.debug, "spoken", ["speech": "\(id)", "seconds": "\((seconds * 100).rounded() / 100)"])
        case .failure(let failure):
            machine.speechStatus.error = failure.message
            log(.warning, "speech failed", ["error": failure.message])
        }
        guard machine.online || machine.observed else { return }
        publishIfChanged(machine.speechStatus.publication)
    }
}
