extension NodeMachine.Draft {
    /// The instant, zone, locale and clock style every phrase is said in.
    var speechContext: SpeechContext { core.speechContext(now) }

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
