import NoiseClockCore

/// What a scene's voices play, as the mixer makes them: a voice is made when its slot changes
/// (another sound or mix, another ring, another preview), so those are the ones to prepare.
struct SceneVoices: Equatable {
    struct Slot: Equatable {
        var role: Role
        var sound: String
        var layers: [AudioScene.Layer]
        var alarm: AlarmSoundKey?
        var previewUntil: Instant?
        /// A station as the noise: what covers it while it is down (`stream.fallback_noise`).
        var stationFallback: String?
    }

    enum Role { case noise, alarm, preAlarm, preview, preroll }

    let slots: [Slot]
    /// The scene's stations' addresses (`radio:<id>` → URL).
    let stations: [String: String]

    init(_ scene: AudioScene) {
        stations = scene.stations
        var slots: [Slot] = []
        if let noise = scene.noise {
            slots.append(Slot(role: .noise, sound: noise.sound, layers: noise.layers, stationFallback: noise.stationFallback))
        }
        if let alarm = scene.alarm { slots.append(Slot(role: .alarm, sound: alarm.sound, layers: [], alarm: alarm.key)) }
        // As the mixer: the pre-alarm sound gives way to a ringing alarm.
        if scene.alarm == nil, let preAlarm = scene.preAlarm { slots.append(Slot(role: .preAlarm, sound: preAlarm.sound, layers: preAlarm.layers)) }
        if let preview = scene.preview {
            slots.append(Slot(role: .preview, sound: preview.sound, layers: preview.layers, previewUntil: preview.until))
        }
        // As the mixer: a preroll's player runs until the ring's voice takes it over.
        if scene.alarm == nil, let preroll = scene.preroll { slots.append(Slot(role: .preroll, sound: preroll.sound, layers: [])) }
        self.slots = slots
    }

    /// A voice of `sound` with `layers` is a mix (`MixSource`), not the sound alone.
    static func isMix(_ sound: String, _ layers: [AudioScene.Layer]) -> Bool {
        !(layers.isEmpty || (layers.count == 1 && layers[0].sound == sound && layers[0].gain == 1))
    }

    /// How many prepared sources of each sound the scene's voices may take: one per voice, and
    /// for a ring one more of the fallback beep (its recording may fail).
    func recordingCounts(_ library: SoundLibrary) -> [String: Int] {
        var counts: [String: Int] = [:]
        for slot in slots {
            counts[slot.sound, default: 0] += 1
            if slot.role == .alarm { counts[Mixer.fallbackSound, default: 0] += 1 }
        }
        return counts
    }

    /// Makes the sources of the slots that are new since `previous`, off the audio thread: opens
    /// their recordings (this reads the disk and waits up to `StreamSource.firstBlockWait` for each
    /// first block), starts their stations' players (their threads connect; nothing waits for
    /// them), and makes their built-in sounds and mixes, so the audio thread allocates none.
    func prepare(after previous: SceneVoices, library: SoundLibrary, radio: RadioSettings? = nil, maxFrames: Int = 1024) -> PreparedSources {
        var prepared = PreparedSources()
        for slot in slots where !previous.slots.contains(slot) {
            // The ring's station was connected ahead (its preroll): the ring's voice takes that player.
            if slot.role == .alarm, previous.slots.contains(where: { $0.role == .preroll && $0.sound == slot.sound }) { continue }
            if Self.isMix(slot.sound, slot.layers) {
                let mix = MixSource(layers: slot.layers, maxFrames: maxFrames) { make($0, library: library, radio: radio, into: &prepared)?.source }
                if let mix { prepared.append(PreparedEntry(source: mix, station: nil, recording: nil, asNoise: false), for: slot.sound) }
                continue
            }
            guard var entry = make(slot.sound, library: library, radio: radio, into: &prepared) else {
                if slot.role == .alarm { prepareFallback(library, into: &prepared) }
                continue
            }
            if slot.role == .alarm, entry.recording != nil { prepareFallback(library, into: &prepared) }
            if slot.role == .noise, let station = entry.station, let radio {
                let fallback = slot.stationFallback.flatMap { library.makeSource($0) }
                let noise = StationNoiseSource(
                    station: station, sound: slot.sound, fallbackID: slot.stationFallback, fallback: fallback, sampleRate: library.sampleRate,
                    maxFrames: maxFrames, report: radio.onRenderedOutage, farewell: radio.onOutage)
                entry = PreparedEntry(source: noise, station: station, recording: nil, asNoise: true)
            }
            prepared.append(entry, for: slot.sound)
        }
        return prepared
    }

    /// The built-in beep a ring falls back to, should its own sound not be made.
    private func prepareFallback(_ library: SoundLibrary, into prepared: inout PreparedSources) {
        guard let beep = library.makeSource(Mixer.fallbackSound) else { return }
        prepared.append(PreparedEntry(source: beep, station: nil, recording: nil, asNoise: false), for: Mixer.fallbackSound)
    }

    /// One sound's source: a station's player, a recording's reader, or a built-in sound.
    private func make(_ sound: String, library: SoundLibrary, radio: RadioSettings?, into prepared: inout PreparedSources) -> PreparedEntry? {
        if let url = stations[sound], let radio {
            let source = StationSource(
                url: url, outputRate: library.sampleRate, userAgent: radio.userAgent, caFile: radio.caFile,
                allowsLocalAddresses: radio.allowsLocalAddresses
            ) { title in
                radio.onTitle(sound, title)
            }
            return PreparedEntry(source: source, station: source, recording: nil, asNoise: false)
        }
        if library.isRecording(sound) {
            guard let source = library.makeStream(sound) else {
                prepared.markGone(sound)
                return nil
            }
            return PreparedEntry(source: source, station: nil, recording: source, asNoise: false)
        }
        return library.makeSource(sound).map { PreparedEntry(source: $0, station: nil, recording: nil, asNoise: false) }
    }
}
