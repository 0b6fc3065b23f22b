/// Brown noise (−6 dB/octave): a leaky integrator of white noise, then a 25 Hz high-pass. The
/// leak (a pole at 10 Hz) keeps it bounded, where a pure integrator would wander off; the
/// high-pass removes DC and the sub-20 Hz rumble (70% of the leaky integrator's power, all of
/// it inaudible), which would otherwise eat headroom. Above 100 Hz both are within 0.05 dB.
public final class BrownNoise: SoundSource, MixLayer {
    private var random: NoiseRandom
    /// The leaky integrators, left and right.
    private var level = SIMD2<Float>()
    private var subsonic: StereoSubsonicFilter
    private let pole: Float
    private var inputGain: Float
    /// A-weighted RMS of the chain fed uniform [-1, 1) noise at unit gain, at 48 kHz (its
    /// response weighted by the IEC 61672 curve, integrated over 0–24 kHz; plain RMS 5.72).
    static let unitAWeightedRMS: Float = 1.4670

    public init(sampleRate: Int, seed: UInt64? = nil) {
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        let corner: Float = 10
        pole = 1 - 2 * Float.pi * corner / Float(sampleRate)
        subsonic = StereoSubsonicFilter(sampleRate: sampleRate)
        // Above the corners the integrator's gain is sampleRate / (2π f), so the audible level
        // for a given input gain grows with √sampleRate.
        let rateFactor = (Float(sampleRate) / 48000).squareRoot()
        inputGain = SoundLevel.noiseLoudness / (Self.unitAWeightedRMS * rateFactor)
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var random = self.random, level = self.level, subsonic = self.subsonic
        let pole = self.pole, gain = self.inputGain
        for i in 0..<frames {
            level = pole * level + gain * random.nextStereo()
            let y = subsonic.process(level)
            out[2 &* i] = y.x
            out[2 &* i &+ 1] = y.y
        }
        self.random = random
        self.level = level
        self.subsonic = subsonic
    }

    /// The chain is linear: a layer's gain is its input's.
    func scaleOutput(by gain: Float) { inputGain *= gain }

    /// `render`'s loop, adding (written out again rather than shared, so that brown alone's loop
    /// stays as it was).
    func renderAdding(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var random = self.random, level = self.level, subsonic = self.subsonic
        let pole = self.pole, gain = self.inputGain
        for i in 0..<frames {
            level = pole * level + gain * random.nextStereo()
            let y = subsonic.process(level)
            out[2 &* i] += y.x
            out[2 &* i &+ 1] += y.y
        }
        self.random = random
        self.level = level
        self.subsonic = subsonic
    }
}
