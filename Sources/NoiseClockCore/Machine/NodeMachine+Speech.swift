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
        if let error = machine.features.speaker.refusal(audio: core.audioStatus) {
            refuse(reply, error)
            return
        }
        let nextAlarm = command == .speakNextAlarm ? core.alarms.nextAlarmSummary(zone: core.settings.zone) : nil
        let (text, volume) = command.words(speechContext, nextAlarm: nextAlarm)
        effects.append(.speak(machine.features.speaker.utter(text, volume: volume, answering: reply)))
        log(.info, "speak", ["command": reply.command, "text": String(text.prefix(80))])
    }

    /// The instant, zone, locale and clock style every phrase is said in.
    var speechContext: SpeechContext {
        SpeechContext(now: now, zone: core.settings.zone, locale: core.settings.locale, use24Hour: core.style.style.use24Hour)
    }

    /// The adapter spoke (or could not): `~/speech` follows what the last utterance (a command's,
    /// an alarm's, a button's) came to, then the waiting command is answered.
    mutating func spoken(_ outcome: SpeechOutcome) {
        let answer = machine.features.speaker.spoken(outcome)
        switch outcome.result {
        case .success(let seconds):
            log(.debug, "spoken", ["speech": "\(outcome.id)", "seconds": "\(Speaker.rounded(seconds))"])
        case .failure(let failure):
            log(.warning, "speech failed", ["error": failure.message])
        }
        if machine.online || machine.observed { publishIfChanged(machine.features.speaker.status.publication) }
        if let (response, origin) = answer { effects += machine.respond(response, to: origin) }
    }
}
