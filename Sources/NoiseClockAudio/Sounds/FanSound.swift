#if canImport(Glibc)
import Glibc
#endif

/// A fan: steady low-passed air noise, a faint motor hum and the blades' gentle beat. A 25 Hz
/// high-pass takes out the pink bed's inaudible sub-20 Hz rumble (37% of the power).
///
/// Made at half the output rate and interpolated (linearly) back up: everything in it lies
/// below its 900 Hz low-pass, 12 dB an octave, so what half the rate loses (above a quarter of
/// the output rate, 12 kHz at 48 kHz) is 55 dB and more below its peak, and the interpolation's
/// images of it land there too, 45 dB and more below the peak. Half the filtering and noise for
/// the same sound below 12 kHz: the fan was the dearest layer of a mix.
public final class FanSound: SoundSource {
    private var random: NoiseRandom
    private var pink = StereoPinkFilter()
    private var air: ShortChainStereoBiquad
    private var subsonic: ShortChainStereoSubsonicFilter
    /// The motor's 100 Hz hum and the blades' 13 Hz beat.
    private var oscillators: QuadratureOscillators
    /// The last two samples made at half rate: output frames lie on and halfway between them.
    private var previous = SIMD2<Float>(), current = SIMD2<Float>()
    /// The block ended between two half-rate samples: the next begins on `current`.
    private var onSample = false
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.2212
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS

    public init(sampleRate: Int, seed: UInt64? = nil) {
        let halfRate = sampleRate / 2
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        air = ShortChainStereoBiquad(Biquad(.lowPass, frequency: 900, q: 0.6, sampleRate: halfRate))
        subsonic = ShortChainStereoSubsonicFilter(sampleRate: halfRate)
        oscillators = QuadratureOscillators(SIMD2(100, 13), sampleRate: halfRate)
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        // The filters' state in locals for the block: a class's stored properties mutated per
        // sample pay a dynamic exclusivity check each time, which cost more than the filters.
        // Left and right go through the filters together (`StereoFilters`).
        var random = self.random
        var oscillators = self.oscillators
        var pink = self.pink, air = self.air, subsonic = self.subsonic
        var previous = self.previous, current = self.current
        // The filters' b0 (which they leave out) folded into the gains.
        let gain = Self.calibration * subsonic.outputScale, airGain: Float = 0.5 * air.outputScale * NoiseRandom.unscaledUnit
        var i = 0
        if onSample, frames > 0 {
            out[0] = current.x
            out[1] = current.y
            i = 1
        }
        while i < frames {
            let (sine, cosine) = oscillators.next()
            let hum = Float(0.012 * sine.x + 0.006 * (2 * sine.x * cosine.x))
            let beat = Float(1 + 0.08 * sine.y)
            previous = current
            current = subsonic.process((air.process(pink.processShallow(random.nextStereoUnscaled())) * (beat * airGain) + hum) * gain)
            let between = (previous + current) * 0.5
            out[2 &* i] = between.x
            out[2 &* i &+ 1] = between.y
            if i &+ 1 < frames {
                out[2 &* i &+ 2] = current.x
                out[2 &* i &+ 3] = current.y
            }
            i &+= 2
        }
        // An odd count ends halfway: the next block starts on `current`.
        onSample = i > frames
        self.random = random
        oscillators.renormalise()
        self.oscillators = oscillators
        self.pink = pink
        self.air = air
        self.subsonic = subsonic
        self.previous = previous
        self.current = current
    }
}
