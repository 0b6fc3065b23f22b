/// The frames written most recently, as the mixer made them (before speech was added), with the
/// speech's duck on each: what the audio thread needs to take queued frames back from the device
/// (`snd_pcm_rewind`) and write them again with a new utterance in them, so the voice starts
/// where the device is playing now instead of behind a buffer of noise. A ring; one thread.
final class QueuedMix {
    let capacity: Int
    private let mix: UnsafeMutablePointer<Float>
    private let ducks: UnsafeMutablePointer<Float>
    /// Where the next frame goes.
    private var end = 0
    /// Frames held (at most `capacity`).
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        mix = .allocate(capacity: capacity * 2)
        ducks = .allocate(capacity: capacity)
    }

    deinit {
        mix.deallocate()
        ducks.deallocate()
    }

    /// A new device: nothing of it is queued.
    func reset() { count = 0 }

    /// Records `frames` stereo frames just written: the mix, and the duck on each (nil: none, 1).
    func append(_ samples: UnsafePointer<Float>, ducks frameDucks: UnsafePointer<Float>?, frames: Int) {
        var done = 0
        while done < frames {
            let run = min(frames - done, capacity - end)
            (mix + 2 * end).update(from: samples + 2 * done, count: 2 * run)
            if let frameDucks {
                (ducks + end).update(from: frameDucks + done, count: run)
            } else {
                (ducks + end).update(repeating: 1, count: run)
            }
            end = (end + run) % capacity
            done += run
        }
        count = min(capacity, count + frames)
    }

    /// Sets the ducks of `frames` frames starting `back` frames before the end (speech is added
    /// after the mix is recorded, and again after a rewind).
    func setDucks(_ frameDucks: UnsafePointer<Float>, frames: Int, back: Int) {
        let first = (end - back + capacity) % capacity
        for frame in 0..<frames { ducks[(first + frame) % capacity] = frameDucks[frame] }
    }

    /// Forgets the latest `frames` (taken back from the device, to be rendered anew).
    func dropLast(_ frames: Int) {
        let dropped = min(frames, count)
        end = (end - dropped + capacity) % capacity
        count -= dropped
    }

    /// The duck on the frame `back` frames before the end (1 ≤ back ≤ count).
    func duck(back: Int) -> Float { ducks[(end - back + capacity) % capacity] }

    /// Copies `frames` frames starting `back` frames before the end into `out`.
    func copy(back: Int, frames: Int, into out: UnsafeMutablePointer<Float>) {
        var position = (end - back + capacity) % capacity, done = 0
        while done < frames {
            let run = min(frames - done, capacity - position)
            (out + 2 * done).update(from: mix + 2 * position, count: 2 * run)
            position = (position + run) % capacity
            done += run
        }
    }
}
