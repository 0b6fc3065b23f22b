#if canImport(Glibc)
import Glibc
#endif

/// A fan: steady low-passed air noise, a faint motor hum and the blades' gentle beat. A 25 Hz
/// high-pass takes out the pink bed's inaudible sub-20 Hz rumble (37% of the power).
public final class FanSound: SoundSource {
    private var random: NoiseRandom
    private var pink = StereoPinkFilter()
    private var air: StereoBiquad
    private var subsonic: StereoSubsonicFilter
    /// The motor's 100 Hz hum and the blades' 13 Hz beat.
    private var oscillators: QuadratureOscillators
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.2212
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS

    public init(sampleRate: Int, seed: UInt64? = nil) {
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        air = StereoBiquad(.lowPass, frequency: 900, q: 0.6, sampleRate: sampleRate)
        subsonic = StereoSubsonicFilter(sampleRate: sampleRate)
        oscillators = QuadratureOscillators(SIMD2(100, 13), sampleRate: sampleRate)
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        // The filters' state in locals for the block: a class's stored properties mutated per
        // sample pay a dynamic exclusivity check each time, which cost more than the filters.
        // Left and right go through the filters together (`StereoFilters`): the same samples.
        var random = self.random
        var oscillators = self.oscillators
        var pink = self.pink, air = self.air, subsonic = self.subsonic
        let gain = Self.calibration
        for i in 0..<frames {
            let (sine, cosine) = oscillators.next()
            let hum = Float(0.012 * sine.x + 0.006 * (2 * sine.x * cosine.x))
            let beat = Float(1 + 0.08 * sine.y)
            let y = subsonic.process((air.process(pink.process(random.nextStereo())) * beat * 0.5 + hum) * gain)
            out[2 &* i] = y.x
            out[2 &* i &+ 1] = y.y
        }
        self.random = random
        oscillators.renormalise()
        self.oscillators = oscillators
        self.pink = pink
        self.air = air
        self.subsonic = subsonic
    }
}
