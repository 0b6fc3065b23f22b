/// An alarm on a station is connected `stream.preroll_seconds` before its ring (issue 29), so the
/// station's first sample plays at the minute: the scene names the station (`AudioScene.preroll`)
/// from then on, the engine starts its player unheard, and the ring's voice takes it over. A
/// snoozed ring on a station is connected again before the snooze ends, and a timer ending on a
/// station is connected before its end (at its start, for a timer shorter than the preroll).
extension NodeCore {
    /// The rings on a station still to come: each enabled alarm's next trigger, a snooze's end, and
    /// each running timer's end.
    func stationRings(after now: Instant) -> [AudioScene.Preroll] {
        var rings: [AudioScene.Preroll] = []
        if let ring = alarms.ring, ring.phase == .snoozed, let until = ring.snoozeUntil, until > now,
           let sound = ring.soundingAlarm?.sound, soundCatalog.station(ofSound: sound) != nil {
            rings.append(AudioScene.Preroll(sound: sound, at: until))
        }
        for alarm in alarms.book.alarms where alarm.enabled && soundCatalog.station(ofSound: alarm.sound) != nil {
            if let at = alarms.nextTrigger(of: alarm, zone: settings.zone), at > now { rings.append(AudioScene.Preroll(sound: alarm.sound, at: at)) }
        }
        for timer in timers.timers where timer.endsAt > now && soundCatalog.station(ofSound: timer.sound) != nil {
            rings.append(AudioScene.Preroll(sound: timer.sound, at: timer.endsAt))
        }
        return rings
    }

    /// `FeatureRule.aStationRingIsConnectedEarly`: the station to connect now, the soonest ring on
    /// a station within the preroll (none while a ring sounds: its voice has the station already).
    func aStationRingIsConnectedEarly(now: Instant) -> AudioScene.Preroll? {
        let seconds = Int64(settings.stream.prerollSeconds)
        guard seconds > 0, alarms.ring?.phase != .ringing else { return nil }
        return stationRings(after: now).filter { $0.at.adding(seconds: -seconds) <= now }.min { $0.at < $1.at }
    }

    /// When the next preroll begins: the wake timer is armed for it, so the scene changes then.
    func prerollDeadline(now: Instant) -> Instant? {
        let seconds = Int64(settings.stream.prerollSeconds)
        guard seconds > 0 else { return nil }
        return stationRings(after: now).map { $0.at.adding(seconds: -seconds) }.filter { $0 > now }.min()
    }
}
