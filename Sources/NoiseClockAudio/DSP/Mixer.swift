import NoiseClockCore

/// Turns an `AudioScene` into samples: one voice per sound, each with its own gain ramp. A
/// changed sound gets a new voice that fades in while the old one fades out (a crossfade);
/// the noise is ducked while an alarm rings and muted while a preview plays. Not thread-safe:
/// one thread (the audio thread, or the offline renderer) owns it.
public final class Mixer {
    enum Role { case noise, alarm, preview }

    private struct Voice {
        var role: Role
        var sound: String
        /// A mix's layers (empty for a plain sound): a changed mix crossfades like a changed sound.
        var layers: [AudioScene.Layer]
        var source: any SoundSource
        var ramp: GainRamp
        var retiring: Bool
    }

    public let library: SoundLibrary
    public let maxFrames: Int
    private var voices: [Voice] = []
    private let scratch: UnsafeMutablePointer<Float>
    private var sampleRate: Int { library.sampleRate }

    /// Seconds for a swing from silence to full gain, per role.
    static func rampSeconds(_ role: Role) -> Float {
        switch role {
        case .noise: 2.0
        case .alarm: 0.1
        case .preview: 0.2
        }
    }

    public init(library: SoundLibrary, maxFrames: Int = 1024) {
        self.library = library
        self.maxFrames = maxFrames
        scratch = .allocate(capacity: maxFrames * 2)
        voices.reserveCapacity(8)
    }

    deinit { scratch.deallocate() }

    /// True when nothing is audible and nothing is fading.
    public var isSilent: Bool { voices.allSatisfy { $0.ramp.isSilent } }

    /// Renders `frames` stereo frames of `scene` starting at `start` (wall-clock) into `out`.
    public func render(_ scene: AudioScene, at start: Instant, frames: Int, into out: UnsafeMutablePointer<Float>) {
        var done = 0
        while done < frames {
            let count = min(maxFrames, frames - done)
            let end = start.adding(milliseconds: Int64((done + count) * 1000 / sampleRate))
            update(scene, at: end)
            let block = out + 2 * done
            block.update(repeating: 0, count: count * 2)
            for index in voices.indices where !voices[index].ramp.isSilent {
                voices[index].source.render(into: scratch, frames: count)
                voices[index].ramp.mix(scratch, into: block, frames: count)
            }
            voices.removeAll { $0.retiring && $0.ramp.isSilent }
            done += count
        }
    }

    /// Jumps every ramp to its target: offline renders start at full level.
    public func settle(_ scene: AudioScene, at now: Instant) {
        update(scene, at: now)
        for index in voices.indices { voices[index].ramp.settle() }
    }

    private func update(_ scene: AudioScene, at now: Instant) {
        var noiseGain: Float = 0
        if let noise = scene.noise {
            noiseGain = AudioScene.gain(volume: noise.volume) * AudioScene.fadeFactor(noise, at: now)
            if scene.alarm != nil { noiseGain *= AudioScene.duckFactor }
            if let preview = scene.preview, now < preview.until { noiseGain = 0 }
        }
        // Keep the noise voice (at zero) while muted, so it resumes seamlessly after a preview.
        setVoice(.noise, sound: scene.noise?.sound, layers: scene.noise?.layers ?? [], gain: noiseGain)
        let alarm = scene.alarm.map { ($0.sound, AudioScene.gain(volume: $0.volume) * $0.rampFactor(at: now)) }
        setVoice(.alarm, sound: alarm?.0, gain: alarm?.1 ?? 0)
        let preview = scene.preview.flatMap { now < $0.until ? $0 : nil }
        setVoice(.preview, sound: preview?.sound, layers: preview?.layers ?? [], gain: preview.map { AudioScene.gain(volume: $0.volume) } ?? 0)
    }

    private func setVoice(_ role: Role, sound: String?, layers: [AudioScene.Layer] = [], gain: Float) {
        let index = voices.firstIndex { $0.role == role && !$0.retiring }
        if let index, voices[index].sound == sound, voices[index].layers == layers {
            voices[index].ramp.target = gain
            return
        }
        if let index {
            voices[index].retiring = true
            voices[index].ramp.target = 0
        }
        guard let sound, let source = makeSource(sound, layers: layers) else { return }
        let ramp = GainRamp(current: 0, target: gain, fullScaleSeconds: Self.rampSeconds(role), sampleRate: sampleRate)
        voices.append(Voice(role: role, sound: sound, layers: layers, source: source, ramp: ramp, retiring: false))
    }

    /// A plain sound's source, or a mix of its layers.
    private func makeSource(_ sound: String, layers: [AudioScene.Layer]) -> (any SoundSource)? {
        if layers.isEmpty || (layers.count == 1 && layers[0].sound == sound && layers[0].gain == 1) { return library.makeSource(sound) }
        return MixSource(layers: layers, library: library, maxFrames: maxFrames)
    }
}
