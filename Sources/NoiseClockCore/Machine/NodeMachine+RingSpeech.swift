extension NodeMachine.Draft {
    /// Alarm `speak_time`: when a ring starts sounding (fired, or ringing again after a snooze: a
    /// new `since`), the time and the labels of its `speak_time` alarms are said over it. No
    /// command waits for this utterance; its outcome only updates `~/speech`.
    mutating func announceRing(before: RingSession?) {
        guard machine.features.speaker.settings.enabled, let ring = core.alarms.ring, ring.beginsRinging(after: before) else { return }
        let speaking = ring.allAlarms.filter(\.speakTime)
        guard !speaking.isEmpty else { return }
        let text = SpeechPhrases.ring(
            core.settings.zone.local(at: now), labels: speaking.map(\.label), locale: core.settings.locale,
            use24Hour: core.style.style.use24Hour)
        effects.append(.speak(machine.features.speaker.utter(text)))
        log(.info, "speak", ["alarm": ring.alarm.id, "text": String(text.prefix(80))])
    }
}
