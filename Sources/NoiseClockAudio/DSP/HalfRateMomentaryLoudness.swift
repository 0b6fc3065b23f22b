#if canImport(Glibc)
import Glibc
#endif

/// ITU-R BS.1770's momentary loudness (K-weighting, 400 ms, left and right weighted 1) of a
/// stereo stream, from every other frame: for the station's levelling, at an eighth of what
/// libebur128 cost at the full rate (docs/performance.md, "A Pi's budget").
///
/// Keeping every other frame (no low-pass first) keeps each sample's energy, so the mean square
/// is the same; what lies above a quarter of the rate folds below it, where K-weighting's shelf
/// gives it the same +4 dB it had (above 3 kHz the curve is flat). Within 0.2 dB of libebur128 at
/// the full rate on pink and white noise and on bright tones (`HalfRateMomentaryLoudnessTests`).
/// The window's energy is the sum of its four 100 ms blocks' sums, not a pass over 400 ms of
/// samples each time as `ebur128_loudness_momentary` makes.
struct HalfRateMomentaryLoudness {
    /// Frames (at the full rate) of one 100 ms block.
    let blockFrames: Int
    private var shelf: KWeightingSection, highPass: KWeightingSection
    /// Whether the next frame is one of the kept ones (the stream's even frames).
    private var keepNext = true
    /// Frames of the block in progress.
    private(set) var framesInBlock = 0
    private var blockEnergy = 0.0
    /// The last four blocks' energies (sums of squares, left plus right), oldest first.
    private var window = SIMD4<Double>()
    private var blocks = 0

    init(sampleRate: Int) {
        blockFrames = sampleRate / 10
        let rate = Double(sampleRate) / 2
        // BS.1770's two stages, designed for the kept frames' rate as libebur128 designs them.
        shelf = .highShelf(rate: rate)
        highPass = .highPass(rate: rate)
    }

    /// Adds `count` interleaved stereo frames; `onBlock` gets each whole 100 ms block's momentary
    /// loudness in LUFS once 400 ms are in (−infinity for digital silence).
    mutating func add(_ frames: UnsafePointer<Float>, count: Int, onBlock: (Double) -> Void) {
        var done = 0
        while done < count {
            let take = min(count - done, blockFrames - framesInBlock)
            accumulate(frames + 2 * done, count: take)
            done += take
            framesInBlock += take
            if framesInBlock == blockFrames {
                framesInBlock = 0
                window = SIMD4(window[1], window[2], window[3], blockEnergy)
                blockEnergy = 0
                blocks += 1
                if blocks >= 4 { onBlock(momentary) }
            }
        }
    }

    /// The last 400 ms: −0.691 + 10 log10 of the mean square, left plus right (kept frames).
    var momentary: Double {
        let kept = Double(2 * blockFrames)  // 4 blocks of blockFrames / 2 kept frames
        let energy = window.sum() / kept
        return energy > 0 ? -0.691 + 10 * log10(energy) : -.infinity
    }

    private mutating func accumulate(_ frames: UnsafePointer<Float>, count: Int) {
        var shelf = self.shelf, highPass = self.highPass, energy = blockEnergy
        var i = keepNext ? 0 : 1
        while i < count {
            let x = SIMD2(Double(frames[2 &* i]), Double(frames[2 &* i &+ 1]))
            let y = highPass.process(shelf.process(x))
            energy += (y * y).sum()
            i &+= 2
        }
        keepNext = (i - count) == 0
        self.shelf = shelf
        self.highPass = highPass
        blockEnergy = energy
    }
}

/// One biquad of BS.1770's K-weighting, left and right together, in doubles (the 38 Hz high-pass's
/// poles lie within 0.01 of 1 at 24 kHz, where floats lose the low end).
struct KWeightingSection {
    private let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    private var x1 = SIMD2<Double>(), x2 = SIMD2<Double>(), y1 = SIMD2<Double>(), y2 = SIMD2<Double>()

    private init(b: (Double, Double, Double), a: (Double, Double)) {
        (b0, b1, b2) = b
        (a1, a2) = a
    }

    /// The pre-filter: +4 dB above about 1.7 kHz (the head's effect), BS.1770's constants.
    static func highShelf(rate: Double) -> KWeightingSection {
        let f0 = 1681.974450955533, gain = 3.999843853973347, q = 0.7071752369554196
        let k = tan(Double.pi * f0 / rate)
        let vh = pow(10, gain / 20)
        let vb = pow(vh, 0.4996667741545416)
        let a0 = 1 + k / q + k * k
        return KWeightingSection(b: ((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0),
                                 a: (2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0))
    }

    /// The RLB high-pass at 38 Hz.
    static func highPass(rate: Double) -> KWeightingSection {
        let f0 = 38.13547087602444, q = 0.5003270373238773
        let k = tan(Double.pi * f0 / rate)
        let a0 = 1 + k / q + k * k
        return KWeightingSection(b: (1, -2, 1), a: (2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0))
    }

    @inline(__always) mutating func process(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
