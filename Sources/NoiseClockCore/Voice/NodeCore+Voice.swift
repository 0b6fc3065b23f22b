/// The voice's commands, answered by the core as a feature's are: the payload is parsed
/// (`SpeechCommand.parse`) and the words decided from the node's time, locale, style and alarms;
/// saying them is the effect `FeatureEffect.speak`, which the machine's speaker carries out (or
/// refuses: speech off, the sound device unavailable) and answers once they are spoken.
extension NodeCore {
    func speak(
        _ command: VoiceCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        let speech: SpeechCommand
        switch SpeechCommand.parse(command, payload: payload) {
        case .success(let parsed): speech = parsed
        case .failure(let error): throw error
        }
        let nextAlarm = speech == .speakNextAlarm ? alarms.nextAlarmSummary(zone: settings.zone) : nil
        let (text, volume) = speech.words(speechContext(context.now), nextAlarm: nextAlarm)
        output.effects.append(.speak(text: text, volume: volume))
        return .null
    }

    /// The instant, zone, locale and clock style every phrase is said in.
    func speechContext(_ now: Instant) -> SpeechContext {
        SpeechContext(now: now, zone: settings.zone, locale: settings.locale, use24Hour: style.style.use24Hour)
    }
}
