extension NodeMachine.Draft {
    /// Alarm `speak_time`: when a ring starts sounding (fired, or ringing again after a snooze: a
    /// new `since`), the time and the labels of its `speak_time` alarms are said over it. No
    /// command waits for this utterance; its outcome only updates `~/speech`.
    mutating func announceRing(before: RingSession?) {
        guard machine.speech.enabled, let ring = core.alarms.ring, ring.beginsRinging(after: before) else { return }
        let speaking = ring.allAlarms.filter(\.speakTime)
        guard !speaking.isEmpty else { return }
        let text = SpeechPhrases.ring(
            core.settings.zone.local(at: now), labels: speaking.map(\.label), locale: core.settings.locale,
            use24Hour: core.style.style.use24Hour)
        let id = machine.nextSpeechID
        machine.nextSpeechID += 1
        effects.append(.speak(SpeechRequest(id: id, text: text, volume: machine.speech.volume)))
        log(.info, "speak", ["alarm": ring.alarm.id, "text": String(text.prefix(80))])
    }
}
