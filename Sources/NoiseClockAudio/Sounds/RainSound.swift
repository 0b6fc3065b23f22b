#if canImport(Glibc)
import Glibc
#endif

/// Rain: a bed of high-passed pink noise (the hiss of many distant drops) plus sparse close
/// drops (short decaying bursts of bright noise at random moments), with slow gusts.
///
/// The drops and the gusts' changes are events: the frames between them are drawn first (a
/// drop's chance each frame is independent, so its gaps are geometric), and the frames up to
/// the next event go through `RainBed.render`, which has no branch and one random draw a frame.
/// Decided per frame (three draws and two compares) it cost half as much again: its chains of
/// dependent operations (the generator stepped three times, the filters' feedback, the pink
/// filter's sum), not its arithmetic, set the pace.
public final class RainSound: SoundSource, MixLayer {
    private var bed: RainBed
    private var framesToDrop = SIMD2<Int>(), framesToNextGust = 0
    private let dropChance: Float
    private let sampleRate: Int
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.3000
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS

    public init(sampleRate: Int, seed: UInt64? = nil) {
        self.sampleRate = sampleRate
        dropChance = 40 / Float(sampleRate)  // about 40 close drops a second per channel
        bed = RainBed(sampleRate: sampleRate, seed: seed ?? NoiseRandom.systemSeed())
        framesToDrop = SIMD2(nextDropGap(), nextDropGap())
    }

    /// Frames from one drop to the next on a channel (at least 1): geometric, as if each frame
    /// had `dropChance` of one.
    private func nextDropGap() -> Int {
        let unit = 1 - bed.random.nextUnit()  // (0, 1]
        return 1 + Int(logf(unit) / log1pf(-dropChance))
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) { render(into: out, frames: frames, OverwriteFrames.self) }

    func renderAdding(into out: UnsafeMutablePointer<Float>, frames: Int) { render(into: out, frames: frames, AddFrames.self) }

    func scaleOutput(by gain: Float) { bed.scale(by: gain) }

    private func render<Write: FrameWrite>(into out: UnsafeMutablePointer<Float>, frames: Int, _ write: Write.Type) {
        var done = 0
        while done < frames {
            if framesToNextGust == 0 {
                // A new gust level every 2 s; the level glides there.
                bed.glide(to: 0.75 + 0.5 * bed.random.nextUnit())
                framesToNextGust = sampleRate * 2
            }
            // A drop lands on this frame: its envelope jumps, then decays with the frame.
            if framesToDrop.x == 0 {
                bed.envelope.x += (0.5 + bed.random.nextUnit()) * bed.dropGain
                framesToDrop.x = nextDropGap()
            }
            if framesToDrop.y == 0 {
                bed.envelope.y += (0.5 + bed.random.nextUnit()) * bed.dropGain
                framesToDrop.y = nextDropGap()
            }
            let run = min(frames - done, framesToNextGust, framesToDrop.x, framesToDrop.y)
            // All state in a local for the run: a class's stored properties mutated per sample
            // pay a dynamic exclusivity check each time.
            var bed = self.bed
            bed.render(into: out + 2 &* done, frames: run, write)
            self.bed = bed
            framesToNextGust -= run
            framesToDrop &-= SIMD2(repeating: run)
            done += run
        }
    }
}

/// Rain's sound between events: the pink bed through its 400 Hz high-pass, the drops (white
/// noise under their envelopes) through their 3.5 kHz band-pass, the bed's gust gliding.
struct RainBed {
    var random: NoiseRandom
    /// The close drops' envelopes, left and right, with their gain in them (`dropGain` a jump):
    /// one multiply a frame fewer than the gain on the filter's output, the same sound (the
    /// filter is linear).
    var envelope = SIMD2<Float>()
    private var pink = RainPinkFilter()
    private var bedFilter: ShortChainStereoBiquad, dropFilter: ShortChainStereoBiquad
    /// The bed's gain, gliding with the gust a fraction `glideRate` of the way to `target` each
    /// frame, from `calibratedBedGain` (gust level 1); the drops' gain. All with their filter's
    /// b0 and the noise's scale (`NoiseRandom.nextStereoUnscaled`).
    private var bedGain: Float, target: Float
    private var calibratedBedGain: Float
    private(set) var dropGain: Float
    private let dropDecay: Float
    private static let glideRate: Float = 0.00002

    init(sampleRate: Int, seed: UInt64) {
        random = NoiseRandom(seed: seed)
        bedFilter = ShortChainStereoBiquad(Biquad(.highPass, frequency: 400, sampleRate: sampleRate))
        dropFilter = ShortChainStereoBiquad(Biquad(.bandPass, frequency: 3500, q: 0.8, sampleRate: sampleRate))
        dropDecay = 1 - 1 / (0.004 * Float(sampleRate))  // 4 ms drops
        calibratedBedGain = 0.26 * RainSound.calibration * bedFilter.outputScale * NoiseRandom.unscaledUnit
        bedGain = calibratedBedGain
        target = calibratedBedGain
        dropGain = 0.7 * RainSound.calibration * dropFilter.outputScale * NoiseRandom.unscaledUnit
    }

    /// The bed's new gust level (1: as calibrated), reached gradually.
    mutating func glide(to level: Float) { target = calibratedBedGain * level }

    /// All the gains times `gain` (a mix's layer).
    mutating func scale(by gain: Float) {
        bedGain *= gain
        target *= gain
        calibratedBedGain *= gain
        dropGain *= gain
        envelope *= gain
    }

    mutating func render<Write: FrameWrite>(into out: UnsafeMutablePointer<Float>, frames: Int, _: Write.Type) {
        var random = self.random, envelope = self.envelope, pink = self.pink
        var bedFilter = self.bedFilter, dropFilter = self.dropFilter, bedGain = self.bedGain
        let keep = 1 - Self.glideRate, pull = target * Self.glideRate, dropDecay = self.dropDecay
        for i in 0..<frames {
            let white = random.nextStereoUnscaled()
            envelope *= dropDecay
            bedGain = bedGain * keep + pull
            let y = bedFilter.processHighPass(pink.process(white)) * bedGain + dropFilter.processBandPass(white * envelope)
            Write.put(y, at: out + 2 &* i)
        }
        self.random = random
        self.envelope = envelope
        self.pink = pink
        self.bedFilter = bedFilter
        self.dropFilter = dropFilter
        self.bedGain = bedGain
    }
}
