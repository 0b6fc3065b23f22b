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
    private var humPhase: Float = 0, bladePhase: Float = 0
    private let humStep: Float, bladeStep: Float
    private let sine = SineTable()
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.2212
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS

    public init(sampleRate: Int, seed: UInt64? = nil) {
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        air = StereoBiquad(.lowPass, frequency: 900, q: 0.6, sampleRate: sampleRate)
        subsonic = StereoSubsonicFilter(sampleRate: sampleRate)
        humStep = 100 / Float(sampleRate)
        bladeStep = 13 / Float(sampleRate)
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        // The filters' state in locals for the block: a class's stored properties mutated per
        // sample pay a dynamic exclusivity check each time, which cost more than the filters.
        // Left and right go through the filters together (`StereoFilters`): the same samples.
        var random = self.random
        var humPhase = self.humPhase, bladePhase = self.bladePhase
        var pink = self.pink, air = self.air, subsonic = self.subsonic
        let gain = Self.calibration, humStep = self.humStep, bladeStep = self.bladeStep, sine = self.sine
        for i in 0..<frames {
            humPhase += humStep
            if humPhase >= 1 { humPhase -= 1 }
            bladePhase += bladeStep
            if bladePhase >= 1 { bladePhase -= 1 }
            let second = humPhase < 0.5 ? 2 * humPhase : 2 * humPhase - 1
            let hum = 0.012 * sine.sine(ofPhase: humPhase) + 0.006 * sine.sine(ofPhase: second)
            let beat = 1 + 0.08 * sine.sine(ofPhase: bladePhase)
            let y = subsonic.process((air.process(pink.process(random.nextStereo())) * beat * 0.5 + hum) * gain)
            out[2 &* i] = y.x
            out[2 &* i &+ 1] = y.y
        }
        self.random = random
        self.humPhase = humPhase
        self.bladePhase = bladePhase
        self.pink = pink
        self.air = air
        self.subsonic = subsonic
    }
}
