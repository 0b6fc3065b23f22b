import NoiseClockCore

/// Turns an `AudioScene` into samples: one voice per sound, each with its own gain ramp. A
/// changed sound gets a new voice that fades in while the old one fades out (a crossfade);
/// the noise is ducked while an alarm rings and muted while a preview plays. Not thread-safe:
/// one thread (the audio thread, or the offline renderer) owns it.
public final class Mixer {
    enum Role { case noise, alarm, preview, preAlarm, preroll }

    private struct Voice {
        var role: Role
        var sound: String
        /// A mix's layers (empty for a plain sound): a changed mix crossfades like a changed sound.
        var layers: [AudioScene.Layer]
        var source: any SoundSource
        /// The station the voice plays (known when its source was made: no cast on the audio thread).
        var station: StationSource?
        var ramp: GainRamp
        var retiring: Bool
        /// For an alarm voice: the ring it sounds.
        var key: AlarmSoundKey?
    }

    /// What the mixer knows of the ringing alarm's sound, for the failsafe's confirmation.
    public struct AlarmPlayback: Equatable, Sendable {
        public var key: AlarmSoundKey
        /// Playing the built-in `fallbackSound`: the alarm's own sound could not be made.
        public var fallback: Bool
        /// Neither the sound nor the fallback could be made.
        public var unplayable: Bool
        /// Some of its samples, at their gain, were at least one 16-bit step: not digital silence.
        public var audible: Bool
        /// The ring's station cannot be heard: why (`StationSource.failure`); nil for other sounds.
        public var streamFailure: String? = nil
    }

    /// Rings when an alarm's own sound cannot be played (a custom file gone or undecodable).
    public static let fallbackSound = "beep"
    /// One step of 16-bit PCM: the quietest sample that is not silence on the device.
    static let audibleThreshold: Float = 1.0 / 32768

    /// Replaced when the sounds directory changes (same sample rate; voices keep their sources).
    public var library: SoundLibrary
    public let maxFrames: Int
    /// Streamed recordings wait for the disk (offline rendering) instead of playing silence, and
    /// are opened here. Otherwise (the audio thread) they are never opened here: `offer` hands
    /// them over, opened ahead.
    public let waitsForDisk: Bool
    private var prepared = PreparedSources()
    private var voices: [Voice] = []
    /// The ringing alarm's playback since its voice was made (nil: no alarm in the scene).
    public private(set) var alarmPlayback: AlarmPlayback?
    /// How long after its ring began the ringing alarm's sound became audible (its first block
    /// picked up, a streamed file's first frames read): its wake curve is read that much later,
    /// so the ramp starts where the sound does, from `start_volume`, however long the audio
    /// thread's period or the disk took. Only a start within `maxAlarmDelay` is waited for: a
    /// ring already under way (the node restarted mid-ramp) goes on where it is.
    private var alarmDelay: Int64 = 0
    private var alarmDelayFrozen = true
    static let maxAlarmDelay: Int64 = 1000
    private let scratch: UnsafeMutablePointer<Float>
    private var sampleRate: Int { library.sampleRate }
    /// Where a sleep radio's outages go (called on this mixer's thread) for the stations it wraps
    /// itself (offline; the engine's are prepared off the audio thread with their own).
    public var onStationOutage: @Sendable (StationOutage) -> Void = { _ in }
    /// Where the sources the mixer lets go of go: the engine hands them to `AudioHandoff`, so their
    /// `deinit` never runs on the audio thread (default: let go of here).
    var retire: (any SoundSource) -> Void = { _ in }
    /// Where a wrapped station's last word goes when it is let go of while down (on the thread
    /// releasing it; nil: `onStationOutage`).
    var onStationFarewell: (@Sendable (StationOutage) -> Void)?

    /// Seconds for a swing from silence to full gain, per role.
    static func rampSeconds(_ role: Role) -> Float {
        switch role {
        case .noise: 2.0
        case .alarm: 0.1
        case .preview: 0.2
        // The pre-alarm sound gives way to the alarm's over about this long: a crossfade, not a cut.
        case .preAlarm: 2.0
        // Never heard: a station connected ahead of its ring, at zero gain.
        case .preroll: 0.1
        }
    }

    public init(library: SoundLibrary, maxFrames: Int = 1024, waitsForDisk: Bool = false) {
        self.library = library
        self.waitsForDisk = waitsForDisk
        self.maxFrames = maxFrames
        scratch = .allocate(capacity: maxFrames * 2)
        // Room for every role and several fading out: no growth (an allocation) on the audio thread.
        voices.reserveCapacity(Self.voiceCapacity)
    }

    deinit { scratch.deallocate() }

    static let voiceCapacity = 32

    /// Lets go of every voice and prepared source through `retire` (the engine's audio thread, as it ends).
    func retireAll() {
        for voice in voices { retire(voice.source) }
        voices.removeAll(keepingCapacity: true)
        prepared.visitEntries { retire($0.source) }
        prepared = PreparedSources()
    }

    /// Recordings opened ahead for `scene`'s new voices (`AudioEngine.apply`); those no voice of
    /// the scene could take are let go, and those its voices did not take when they were made.
    public func offer(_ sources: PreparedSources, for scene: AudioScene) {
        var sources = sources
        offer(&sources, for: scene)
    }

    /// Swapped in whole when none wait (the engine's case: `apply` trimmed them already), leaving
    /// `sources` empty: the mixer holds the only reference, so taking from it later neither copies
    /// nor allocates on the audio thread. Merged otherwise.
    func offer(_ sources: inout PreparedSources, for scene: AudioScene) {
        if prepared.isEmpty {
            swap(&prepared, &sources)
            return
        }
        guard !sources.isEmpty else { return }
        for entry in prepared.add(sources) { retire(entry.source) }
        sources = PreparedSources()
        for entry in prepared.trim(to: SceneVoices(scene).recordingCounts(library)) { retire(entry.source) }
    }

    /// True when nothing is audible and nothing is fading.
    public var isSilent: Bool { voices.allSatisfy { $0.ramp.isSilent } }

    /// Renders `frames` stereo frames of `scene` starting at `start` (wall-clock) into `out`.
    public func render(_ scene: AudioScene, at start: Instant, frames: Int, into out: UnsafeMutablePointer<Float>) {
        var done = 0
        while done < frames {
            let count = min(maxFrames, frames - done)
            let end = start.adding(milliseconds: Int64((done + count) * 1000 / sampleRate))
            trackAlarmDelay(scene, blockStart: start.adding(milliseconds: Int64(done * 1000 / sampleRate)))
            update(scene, at: end)
            let block = out + 2 * done
            block.update(repeating: 0, count: count * 2)
            // A preroll's station is rendered unheard: its ring stays at the live edge for the ring.
            for index in voices.indices where !voices[index].ramp.isSilent || voices[index].role == .preroll {
                voices[index].source.render(into: scratch, frames: count)
                voices[index].ramp.mix(scratch, into: block, frames: count)
                if let key = voices[index].key, alarmPlayback?.key == key, alarmPlayback?.audible == false,
                   peak(scratch, count: count * 2) * voices[index].ramp.current >= Self.audibleThreshold {
                    alarmPlayback?.audible = true
                }
                if voices[index].key != nil, alarmPlayback?.key == voices[index].key, alarmPlayback?.streamFailure == nil,
                   let station = voices[index].station, let cause = station.failure {
                    alarmPlayback?.streamFailure = cause
                }
            }
            for voice in voices where voice.retiring && voice.ramp.isSilent { retire(voice.source) }
            voices.removeAll { $0.retiring && $0.ramp.isSilent }
            done += count
        }
    }

    /// Jumps every ramp to its target: offline renders start at full level.
    public func settle(_ scene: AudioScene, at now: Instant) {
        update(scene, at: now)
        for index in voices.indices { voices[index].ramp.settle() }
    }

    /// Before a block: a new ring's delay starts counting; one not yet audible keeps counting.
    private func trackAlarmDelay(_ scene: AudioScene, blockStart: Instant) {
        guard let alarm = scene.alarm else { return }
        let lag = blockStart.milliseconds - alarm.since.milliseconds
        if alarmPlayback?.key != alarm.key {
            // A new ring (its voice is made in this block's update).
            alarmDelayFrozen = lag < 0 || lag > Self.maxAlarmDelay
            alarmDelay = alarmDelayFrozen ? 0 : lag
        } else if !alarmDelayFrozen {
            if alarmPlayback?.audible == true || lag > Self.maxAlarmDelay {
                alarmDelayFrozen = true
            } else {
                alarmDelay = max(0, lag)
            }
        }
    }

    private func update(_ scene: AudioScene, at now: Instant) {
        var noiseGain: Float = 0
        if let noise = scene.noise {
            noiseGain = AudioScene.gain(volume: noise.volume) * AudioScene.fadeFactor(noise, at: now)
            if scene.alarm != nil { noiseGain *= AudioScene.duckFactor }
            if let preview = scene.preview, now < preview.until { noiseGain = 0 }
        }
        // Keep the noise voice (at zero) while muted, so it resumes seamlessly after a preview.
        setVoice(.noise, sound: scene.noise?.sound, layers: scene.noise?.layers ?? [], gain: noiseGain,
                 stationFallback: scene.noise?.stationFallback)
        setAlarmVoice(scene.alarm, gain: scene.alarm?.gain(at: now.adding(milliseconds: -alarmDelay)) ?? 0)
        // After the alarm's voice, which takes over a preroll's station when the ring comes.
        setVoice(.preroll, sound: scene.alarm == nil ? scene.preroll?.sound : nil, gain: 0)
        let preAlarm = scene.alarm == nil ? scene.preAlarm : nil
        setVoice(.preAlarm, sound: preAlarm?.sound, layers: preAlarm?.layers ?? [], gain: scene.preAlarm?.gain(at: now) ?? 0)
        let preview = scene.preview.flatMap { now < $0.until ? $0 : nil }
        setVoice(.preview, sound: preview?.sound, layers: preview?.layers ?? [], gain: preview.map { AudioScene.gain(volume: $0.volume) } ?? 0)
        // The scene's new voices are made: a recording none of them took (a voice kept, a scene
        // passed over) is not needed; its reader stops.
        if !prepared.isEmpty {
            prepared.visitEntries { retire($0.source) }
            prepared = PreparedSources()
        }
    }

    /// The alarm's voice: a new one for every ring (`key`), the fallback when its sound cannot be made.
    private func setAlarmVoice(_ alarm: AudioScene.Alarm?, gain: Float) {
        let index = voices.firstIndex { $0.role == .alarm && !$0.retiring }
        if let index, let alarm, voices[index].key == alarm.key {
            voices[index].ramp.target = gain
            return
        }
        if let index {
            voices[index].retiring = true
            voices[index].ramp.target = 0
        }
        guard let alarm else {
            alarmPlayback = nil
            return
        }
        var fallback = false
        var made = takePreroll(alarm.sound) ?? makeSource(alarm.sound)
        if made == nil {
            fallback = true
            made = makeSource(Self.fallbackSound)
        }
        alarmPlayback = AlarmPlayback(key: alarm.key, fallback: fallback, unplayable: made == nil, audible: false)
        guard let (source, station) = made else { return }
        // Taking over from a pre-alarm sound: fade in as slowly as it fades out (a crossfade).
        let crossfade = voices.contains { $0.role == .preAlarm && !$0.ramp.isSilent }
        let ramp = GainRamp(current: 0, target: gain, fullScaleSeconds: Self.rampSeconds(crossfade ? .preAlarm : .alarm), sampleRate: sampleRate)
        voices.append(Voice(role: .alarm, sound: alarm.sound, layers: [], source: source, station: station, ramp: ramp, retiring: false,
                            key: alarm.key))
    }

    /// The station connected ahead of this ring (`AudioScene.preroll`), taken out of its voice.
    private func takePreroll(_ sound: String) -> Made? {
        guard let index = voices.firstIndex(where: { $0.role == .preroll && !$0.retiring && $0.sound == sound }) else { return nil }
        let voice = voices.remove(at: index)
        return (voice.source, voice.station)
    }

    private func peak(_ samples: UnsafeMutablePointer<Float>, count: Int) -> Float {
        var peak: Float = 0
        for i in 0..<count { peak = max(peak, abs(samples[i])) }
        return peak
    }

    private func setVoice(_ role: Role, sound: String?, layers: [AudioScene.Layer] = [], gain: Float, stationFallback: String? = nil) {
        let index = voices.firstIndex { $0.role == role && !$0.retiring }
        if let index, voices[index].sound == sound, voices[index].layers == layers {
            voices[index].ramp.target = gain
            return
        }
        if let index {
            voices[index].retiring = true
            voices[index].ramp.target = 0
        }
        guard let sound, let made = makeSource(sound, layers: layers, asNoise: role == .noise) else { return }
        var source = made.source
        let station = made.station
        // A station as the noise: covered by `stream.fallback_noise` while it is down (made here
        // only when it was not prepared so: offline, or a mixer nobody prepares for).
        if role == .noise, let plain = station, source === plain {
            let fallback = stationFallback.flatMap { makeSource($0)?.source }
            source = StationNoiseSource(station: plain, sound: sound, fallbackID: stationFallback, fallback: fallback,
                                        sampleRate: sampleRate, maxFrames: maxFrames, report: onStationOutage,
                                        farewell: onStationFarewell)
        }
        let ramp = GainRamp(current: 0, target: gain, fullScaleSeconds: Self.rampSeconds(role), sampleRate: sampleRate)
        voices.append(Voice(role: role, sound: sound, layers: layers, source: source, station: station, ramp: ramp, retiring: false, key: nil))
    }

    /// A voice's source and the station it plays (nil: not a station).
    private typealias Made = (source: any SoundSource, station: StationSource?)

    /// A plain sound's source, or a mix of its layers: prepared off the audio thread when the
    /// engine plays (`SceneVoices.prepare`), made here otherwise.
    private func makeSource(_ sound: String, layers: [AudioScene.Layer], asNoise: Bool) -> Made? {
        guard SceneVoices.isMix(sound, layers) else { return makeSource(sound, asNoise: asNoise) }
        if !waitsForDisk, let entry = prepared.take(sound) { return (entry.source, entry.station) }
        return MixSource(layers: layers, maxFrames: maxFrames) { makeSource($0)?.source }.map { ($0, nil) }
    }

    /// A sound taken from those offered; failing that, a built-in sound is made here (an
    /// allocation: the engine prepares them all), a recording or station is not (nil: its file did
    /// not open), unless rendering offline, which opens it here.
    private func makeSource(_ sound: String, asNoise: Bool = false) -> Made? {
        if waitsForDisk { return library.makeSource(sound, waitsForDisk: true).map { ($0, nil) } }
        if let entry = prepared.take(sound, asNoise: asNoise) { return (entry.source, entry.station) }
        let prepares = library.isRecording(sound) || Station.stationID(ofSound: sound) != nil
        return prepares ? nil : library.makeSource(sound).map { ($0, nil) }
    }
}
