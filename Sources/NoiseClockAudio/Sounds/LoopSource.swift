/// A decoded recording: interleaved stereo at the output rate, 16-bit to halve the memory,
/// with the loop seam already crossfaded (the last part of the file is blended into the
/// first), so playing it round and round has no click.
public final class SoundClip: Sendable {
    public let samples: [Int16]
    public let frames: Int
    /// Brings the recording to the common noise loudness (equal A-weighted RMS).
    public let gain: Float

    public init(samples: [Int16], gain: Float) {
        precondition(samples.count >= 2 && samples.count % 2 == 0, "a clip holds whole stereo frames")
        self.samples = samples
        frames = samples.count / 2
        self.gain = gain
    }
}

/// Plays a `SoundClip` in an endless loop.
public final class LoopSource: SoundSource {
    private let clip: SoundClip
    private var position = 0

    public init(_ clip: SoundClip) { self.clip = clip }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        let scale = clip.gain / 32768
        clip.samples.withUnsafeBufferPointer { samples in
            var position = self.position
            let total = clip.frames
            for i in 0..<frames {
                out[2 &* i] = Float(samples[2 &* position]) * scale
                out[2 &* i &+ 1] = Float(samples[2 &* position &+ 1]) * scale
                position &+= 1
                if position == total { position = 0 }
            }
            self.position = position
        }
    }
}
