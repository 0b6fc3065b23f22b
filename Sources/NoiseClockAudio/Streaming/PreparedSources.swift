import NoiseClockCore

/// A source opened off the audio thread and handed to it: a recording (`StreamSource`) or a
/// station (`StationSource`).
protocol PreparedSource: SoundSource, Sendable {
    /// Not worth handing over: a recording that stopped being readable. A station is always taken
    /// (its failure is reported by the mixer, with its cause).
    var unusable: Bool { get }
}

extension StreamSource: PreparedSource {
    var unusable: Bool { failed }
}

extension StationSource: PreparedSource {
    var unusable: Bool { false }
}

/// Streamed recordings opened ahead of the audio thread: `AudioEngine.apply` opens the files a
/// scene's new voices will play (header, reader thread, first block) before it hands the scene
/// over, and the mixer takes them from here, so the audio thread never opens a file nor waits.
/// A file that cannot be opened then is simply not here: the alarm rings the fallback.
public struct PreparedSources: Sendable {
    private var byID: [String: [any PreparedSource]] = [:]
    /// Recordings that failed to open since: the older sources of them are dropped on `add`.
    private var gone: Set<String> = []

    public init() {}

    var isEmpty: Bool { byID.isEmpty && gone.isEmpty }

    /// The newest source of `id` still readable, taken out.
    mutating func take(_ id: String) -> (any PreparedSource)? {
        while let source = byID[id]?.popLast() {
            if !source.unusable { return source }
        }
        return nil
    }

    mutating func append(_ source: any PreparedSource, for id: String) {
        byID[id, default: []].append(source)
    }

    /// `id` did not open: older sources of it (opened before it broke) are not played.
    mutating func markGone(_ id: String) {
        byID[id] = nil
        gone.insert(id)
    }

    /// Takes in `newer`'s sources after these, dropping those of recordings gone since (and
    /// remembering that, for whoever takes these in turn).
    mutating func add(_ newer: PreparedSources) {
        for id in newer.gone { byID[id] = nil }
        gone.formUnion(newer.gone)
        for (id, sources) in newer.byID { byID[id, default: []].append(contentsOf: sources) }
    }

    /// Keeps the newest `counts[id]` sources of each recording (as many as the scene has voices
    /// playing it); the rest are dropped, their readers stopping on their own threads.
    mutating func trim(to counts: [String: Int]) {
        gone = gone.filter { counts[$0] != nil }
        for (id, sources) in byID {
            let keep = counts[id] ?? 0
            if sources.count > keep { byID[id] = keep == 0 ? nil : Array(sources.suffix(keep)) }
        }
    }
}

/// What a scene's voices play, as the mixer makes them: a voice is made when its slot changes
/// (another sound or mix, another ring, another preview), so those are the ones to prepare.
struct SceneVoices: Equatable {
    struct Slot: Equatable {
        var role: Role
        var sound: String
        var layers: [AudioScene.Layer]
        var alarm: AlarmSoundKey?
        var previewUntil: Instant?

        /// The sounds the voice plays: its mix's layers, or its sound.
        var sounds: [String] { layers.isEmpty ? [sound] : layers.map(\.sound) }
    }

    enum Role { case noise, alarm, preAlarm, preview, preroll }

    let slots: [Slot]
    /// The scene's stations' addresses (`radio:<id>` → URL).
    let stations: [String: String]

    init(_ scene: AudioScene) {
        stations = scene.stations
        var slots: [Slot] = []
        if let noise = scene.noise { slots.append(Slot(role: .noise, sound: noise.sound, layers: noise.layers)) }
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

    /// How many voices of the scene play each recording of `library`.
    func recordingCounts(_ library: SoundLibrary) -> [String: Int] {
        var counts: [String: Int] = [:]
        for slot in slots {
            for sound in slot.sounds where library.isRecording(sound) || stations[sound] != nil { counts[sound, default: 0] += 1 }
        }
        return counts
    }

    /// Opens the recordings of the slots that are new since `previous` (off the audio thread:
    /// this reads the disk and waits up to `StreamSource.firstBlockWait` for each first block).
    /// A station's player is started here (its thread connects; nothing waits for it).
    func prepare(after previous: SceneVoices, library: SoundLibrary, radio: RadioSettings? = nil) -> PreparedSources {
        var prepared = PreparedSources()
        for slot in slots where !previous.slots.contains(slot) {
            // The ring's station was connected ahead (its preroll): the ring's voice takes that player.
            if slot.role == .alarm, previous.slots.contains(where: { $0.role == .preroll && $0.sound == slot.sound }) { continue }
            for sound in slot.sounds {
                if let url = stations[sound], let radio {
                    let source = StationSource(
                        url: url, outputRate: library.sampleRate, userAgent: radio.userAgent, caFile: radio.caFile,
                        allowsLocalAddresses: radio.allowsLocalAddresses
                    ) { title in
                        radio.onTitle(sound, title)
                    }
                    prepared.append(source, for: sound)
                    continue
                }
                guard library.isRecording(sound) else { continue }
                if let source = library.makeStream(sound) {
                    prepared.append(source, for: sound)
                } else {
                    prepared.markGone(sound)
                }
            }
        }
        return prepared
    }
}
