#if canImport(Glibc)
import Glibc
#endif

/// Ocean: brown and pink noise through a low-pass whose cutoff and level rise and fall with
/// each wave (6–11 s, every wave a little different); left and right waves slightly apart.
/// A 25 Hz high-pass takes out the brown part's inaudible sub-20 Hz rumble (46% of the power).
public final class OceanSound: SoundSource {
    private struct Wave {
        var phase: Float = 0
        var step: Float = 0
    }

    private var random: NoiseRandom
    private var pinkL = PinkFilter(), pinkR = PinkFilter()
    private var brownL: Float = 0, brownR: Float = 0
    private var filterL: Biquad, filterR: Biquad
    private var subsonicL: SubsonicFilter, subsonicR: SubsonicFilter
    private var wave = Wave()
    private var levelL: Float = 0, levelR: Float = 0
    private var controlCountdown = 0
    private let sampleRate: Int
    private let brownPole: Float
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.2671
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS
    /// Filter and level are recomputed every 32 frames: far below what the ear resolves.
    private static let controlInterval = 32

    public init(sampleRate: Int, seed: UInt64? = nil) {
        self.sampleRate = sampleRate
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        filterL = Biquad(.lowPass, frequency: 500, sampleRate: sampleRate)
        filterR = filterL
        subsonicL = SubsonicFilter(sampleRate: sampleRate)
        subsonicR = subsonicL
        brownPole = 1 - 2 * Float.pi * 10 / Float(sampleRate)
        wave.phase = random.nextUnit()
        newWave()
    }

    private func newWave() {
        let seconds = 6 + 5 * random.nextUnit()
        wave.step = Float(Self.controlInterval) / (seconds * Float(sampleRate))
    }

    /// A wave swells slowly, breaks, and recedes: 0.35...1.
    private static func swell(_ phase: Float) -> Float {
        let s = sinf(Float.pi * phase)
        return 0.35 + 0.65 * s * s
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var random = self.random
        let pole = brownPole, gain = Self.calibration
        for i in 0..<frames {
            if controlCountdown == 0 {
                controlCountdown = Self.controlInterval
                wave.phase += wave.step
                if wave.phase >= 1 {
                    wave.phase -= 1
                    newWave()
                }
                levelL = Self.swell(wave.phase)
                levelR = Self.swell(wave.phase < 0.97 ? wave.phase + 0.03 : wave.phase - 0.97)
                filterL.setCoefficients(.lowPass, frequency: 300 + 2200 * levelL * levelL, q: 0.7071, sampleRate: sampleRate)
                filterR.setCoefficients(.lowPass, frequency: 300 + 2200 * levelR * levelR, q: 0.7071, sampleRate: sampleRate)
            }
            controlCountdown -= 1
            let (wl, wr) = random.nextPair()
            brownL = pole * brownL + 0.03 * wl
            brownR = pole * brownR + 0.03 * wr
            out[2 &* i] = subsonicL.process(filterL.process(brownL + 0.5 * pinkL.process(wl)) * levelL * gain)
            out[2 &* i &+ 1] = subsonicR.process(filterR.process(brownR + 0.5 * pinkR.process(wr)) * levelR * gain)
        }
        self.random = random
    }
}
