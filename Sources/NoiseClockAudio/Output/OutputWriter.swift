import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// The audio thread's writing side: a period of the mix with speech over it, as 16-bit PCM, to
/// the device; and, when something must be heard at once (a new utterance, a new alarm ring, a
/// preview), what the device has queued but not yet played taken back and written again with
/// it in (`snd_pcm_rewind`), so it starts where the device is playing now instead of behind up
/// to a buffer of what was queued. One thread.
final class OutputWriter {
    /// Left queued on a rewind: the device may be reading it already. More before a new scene:
    /// making its voice may wait up to 20 ms for a streamed file's first block
    /// (`StreamSource.firstBlockWait`) while the device plays on.
    private let inFlightFrames: Int
    private let inFlightFramesForScene: Int
    /// A new scene's frames crossfade from what was queued over this many frames.
    private let spliceFrames: Int
    private let capacity: Int
    private let floats: UnsafeMutablePointer<Float>
    private let pcm: UnsafeMutablePointer<Int16>
    private let ducks: UnsafeMutablePointer<Float>
    private let splice: UnsafeMutablePointer<Float>
    private var conversion: PCMConversion
    /// What was written lately, as the mixer made it, to write it again.
    private let queued: QueuedMix

    init(sampleRate: Int, maxFrames: Int, ditherSeed: UInt64?) {
        inFlightFrames = sampleRate / 100
        inFlightFramesForScene = sampleRate / 25
        spliceFrames = sampleRate / 100
        capacity = maxFrames
        floats = .allocate(capacity: maxFrames * 2)
        pcm = .allocate(capacity: maxFrames * 2)
        ducks = .allocate(capacity: maxFrames)
        splice = .allocate(capacity: spliceFrames * 2)
        conversion = PCMConversion(seed: ditherSeed)
        queued = QueuedMix(capacity: 2 * maxFrames)
    }

    deinit {
        floats.deallocate()
        pcm.deallocate()
        ducks.deallocate()
        splice.deallocate()
    }

    /// A new device: nothing of it is queued.
    func reset() { queued.reset() }

    /// Renders `frames` (≤ `maxFrames`) of `scene` with speech over them and writes them.
    func writePeriod(_ mixer: Mixer, _ scene: AudioScene, at now: Instant, frames: Int, speech: inout SpeechPlayer,
                     to output: AlsaPCM) throws(AlsaPCM.Failure) {
        mixer.render(scene, at: now, frames: frames, into: floats)
        try write(frames: frames, speech: &speech, to: output)
    }

    /// Takes back what `output` has queued (all but what may be in flight) and writes it again: with a
    /// new utterance (`speech` has just taken it) over the same mix, so the noise goes on sample
    /// for sample; or, with `scene` (a new alarm ring or preview), rendered anew by `mixer` and
    /// spliced onto what was playing with a 10 ms crossfade (the sources have moved on by the
    /// frames taken back: a jump within a steady noise, faded as a file's loop seam is).
    /// Returns the frames written again.
    func rewrite(_ output: AlsaPCM, speech: inout SpeechPlayer, newUtterance: Bool,
                 scene: (mixer: Mixer, scene: AudioScene, now: Instant)?) throws(AlsaPCM.Failure) -> Int {
        let inFlight = scene == nil ? inFlightFrames : inFlightFramesForScene
        let back = output.rewind(min(queued.count, output.rewindable() - inFlight))
        guard back > 0 else { return 0 }
        // The duck goes on from the frame before the first one taken back.
        let duck = queued.duck(back: min(back + 1, queued.count))
        if newUtterance {
            speech.rewound(toDuck: duck)
        } else {
            speech.rewind(frames: back, toDuck: duck)
        }
        guard let scene else {
            var done = 0
            while done < back {
                let frames = min(capacity, back - done)
                queued.copy(back: back - done, frames: frames, into: floats)
                speech.render(into: floats, frames: frames, ducks: ducks)
                queued.setDucks(ducks, frames: frames, back: back - done)
                try convertAndWrite(frames: frames, to: output)
                done += frames
            }
            return back
        }
        let fade = min(spliceFrames, back)
        queued.copy(back: back, frames: fade, into: splice)
        queued.dropLast(back)
        var done = 0
        while done < back {
            let frames = min(capacity, back - done)
            scene.mixer.render(scene.scene, at: scene.now, frames: frames, into: floats)
            if done == 0 { crossfade(from: splice, frames: fade) }
            try write(frames: frames, speech: &speech, to: output)
            done += frames
        }
        return back
    }

    /// Records the mix in `floats`, adds speech, converts and writes.
    private func write(frames: Int, speech: inout SpeechPlayer, to output: AlsaPCM) throws(AlsaPCM.Failure) {
        queued.append(floats, ducks: nil, frames: frames)
        if speech.isActive {
            speech.render(into: floats, frames: frames, ducks: ducks)
            queued.setDucks(ducks, frames: frames, back: frames)
        }
        try convertAndWrite(frames: frames, to: output)
    }

    private func convertAndWrite(frames: Int, to output: AlsaPCM) throws(AlsaPCM.Failure) {
        conversion.toS16(floats, pcm, count: frames * 2)
        try output.write(pcm, frames: frames)
    }

    /// Equal-power crossfade from `old` into the first `frames` of `floats` (unrelated noise
    /// keeps its level through it).
    private func crossfade(from old: UnsafePointer<Float>, frames: Int) {
        for frame in 0..<frames {
            let angle = Float.pi / 2 * (Float(frame) + 0.5) / Float(frames)
            let fadeIn = sinf(angle), fadeOut = cosf(angle)
            floats[2 * frame] = floats[2 * frame] * fadeIn + old[2 * frame] * fadeOut
            floats[2 * frame + 1] = floats[2 * frame + 1] * fadeIn + old[2 * frame + 1] * fadeOut
        }
    }
}
