/// Speech over whatever plays: the audio thread's part. It ducks the rest of the mix (noise,
/// alarm) while it speaks, going down in `attackSeconds` as the voice starts (the voice never
/// waits for it: a button's answer comes at once) and back up in `releaseSeconds` after, and adds
/// the voice (mono, on both channels). A new utterance replaces one still speaking. Owned by one thread.
struct SpeechPlayer {
    /// The rest of the mix while speech plays (about −12 dB).
    static let duckLevel: Float = 0.25
    static let attackSeconds: Float = 0.1
    static let releaseSeconds: Float = 0.25

    private var samples: [Int16] = []
    private var position = 0
    private var gain: Float = 0
    private var generation: UInt64 = 0
    /// The rest of the mix's current factor (1: not ducked).
    private(set) var duck: Float = 1
    private let attack: Float
    private let release: Float

    init(sampleRate: Int) {
        attack = (1 - Self.duckLevel) / (Self.attackSeconds * Float(sampleRate))
        release = (1 - Self.duckLevel) / (Self.releaseSeconds * Float(sampleRate))
    }

    /// Speaking, or the duck not yet back to 1.
    var isActive: Bool { position < samples.count || duck < 1 }

    /// Takes `clip` if it is new (a later generation than the one playing); true if it did.
    @discardableResult
    mutating func offer(_ clip: SpeechClip?) -> Bool {
        guard let clip, clip.generation != generation else { return false }
        generation = clip.generation
        samples = clip.samples
        position = 0
        gain = clip.gain
        return true
    }

    /// The queued frames were taken back to be written again with the new utterance in them:
    /// the duck goes on from where it was on the first of them.
    mutating func rewound(toDuck duck: Float) { self.duck = duck }

    /// The last `frames` written were taken back to be written again: the utterance goes back
    /// as far, the duck to where it was. (Its samples are kept until the duck is back up, 0.25 s
    /// after its end, longer than any rewind, so none of it is lost.)
    mutating func rewind(frames: Int, toDuck duck: Float) {
        if !samples.isEmpty { position = max(0, position - frames) }
        self.duck = duck
    }

    /// Ducks `frames` stereo frames of `mix` and adds the voice to them; `ducks` (if given) gets
    /// each frame's duck (1 when nothing speaks), for a later rewind.
    mutating func render(into mix: UnsafeMutablePointer<Float>, frames: Int, ducks: UnsafeMutablePointer<Float>? = nil) {
        guard isActive else {
            ducks?.update(repeating: 1, count: frames)
            return
        }
        for frame in 0..<frames {
            var voice: Float = 0
            if position < samples.count {
                duck = max(Self.duckLevel, duck - attack)
                voice = Float(samples[position]) / 32768 * gain
                position += 1
            } else {
                duck = min(1, duck + release)
            }
            mix[2 * frame] = mix[2 * frame] * duck + voice
            mix[2 * frame + 1] = mix[2 * frame + 1] * duck + voice
            ducks?[frame] = duck
        }
        if position >= samples.count, !samples.isEmpty, duck >= 1 {
            samples = []
            position = 0
        }
    }
}

/// An utterance handed to the engine: mono samples at the engine's rate and their gain.
public struct SpeechClip: Sendable {
    public var samples: [Int16]
    public var gain: Float
    var generation: UInt64

    public init(samples: [Int16], gain: Float, generation: UInt64) {
        self.samples = samples
        self.gain = gain
        self.generation = generation
    }
}
