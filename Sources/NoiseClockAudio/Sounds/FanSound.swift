#if canImport(Glibc)
import Glibc
#endif

/// A fan: steady low-passed air noise, a faint motor hum and the blades' gentle beat. A 25 Hz
/// high-pass takes out the pink bed's inaudible sub-20 Hz rumble (37% of the power).
///
/// Made at a quarter of the output rate and interpolated back up (cubic Lagrange over four
/// samples): everything in it lies below its 900 Hz low-pass, 12 dB an octave. What the lower
/// rate changes lies above 2 kHz, where the sound is already 14 dB and more below its loudest
/// octave: the 2 kHz octave 0.7 dB quieter, the 4 kHz one 4.7 dB (the low-pass falls faster
/// near the lower Nyquist frequency); above 6 kHz (the interpolation's images) all is 50 dB
/// and more below the loudest octave (docs/performance.md, 2026-11-26). A quarter of the
/// filtering and noise: the fan was the dearest layer of a mix.
public final class FanSound: SoundSource, MixLayer {
    private var air: FanAir
    /// The last four samples made at a quarter of the rate, oldest first, each as (left, right,
    /// left, right): output frames lie between the middle two (two samples late, 0.17 ms at
    /// 48 kHz).
    private var samples = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
    /// How many of the four frames between the middle two have been written (0 to 3).
    private var phase = 0
    /// Quarter-rate samples made ahead of the interpolation, a chunk at a time.
    private static let scratchSamples = 256
    private let scratch = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: scratchSamples)
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.2212
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS

    public init(sampleRate: Int, seed: UInt64? = nil) {
        air = FanAir(quarterRate: sampleRate / 4, seed: seed ?? NoiseRandom.systemSeed())
    }

    deinit { scratch.deallocate() }

    /// The cubic Lagrange weights of the four samples for the frames 0, ¼, ½ and ¾ of the way
    /// from the second to the third, two frames per vector (each weight twice: left, right).
    private static let weights: [(SIMD4<Float>, SIMD4<Float>)] = [
        (SIMD4(0, 0, -0.0546875, -0.0546875), SIMD4(-0.0625, -0.0625, -0.0390625, -0.0390625)),
        (SIMD4(1, 1, 0.8203125, 0.8203125), SIMD4(0.5625, 0.5625, 0.2734375, 0.2734375)),
        (SIMD4(0, 0, 0.2734375, 0.2734375), SIMD4(0.5625, 0.5625, 0.8203125, 0.8203125)),
        (SIMD4(0, 0, -0.0390625, -0.0390625), SIMD4(-0.0625, -0.0625, -0.0546875, -0.0546875)),
    ]

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) { render(into: out, frames: frames, OverwriteFrames.self) }

    func renderAdding(into out: UnsafeMutablePointer<Float>, frames: Int) { render(into: out, frames: frames, AddFrames.self) }

    func scaleOutput(by gain: Float) { air.outputGain *= gain }

    private func render<Write: FrameWrite>(into out: UnsafeMutablePointer<Float>, frames: Int, _: Write.Type) {
        let w = Self.weights
        let w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3]
        var samples = self.samples, phase = self.phase
        var i = 0
        // The frames of a group the last block began, then the whole groups of four frames, a
        // chunk of samples at a time (made first, in a loop of their own: interleaved with the
        // interpolation, the compiler split their vectors into lanes), then the frames of a
        // group this block begins.
        while i < frames {
            let whole = phase == 0 ? min((frames &- i) / 4, Self.scratchSamples) : 0
            if whole > 0 {
                var air = self.air
                air.render(into: scratch, count: whole)
                self.air = air
                for g in 0..<whole {
                    let s = samples
                    let at = UnsafeMutableRawPointer(out + 2 &* i)
                    Write.put(Self.interpolate(s, w0.0, w1.0, w2.0, w3.0), at: at)
                    Write.put(Self.interpolate(s, w0.1, w1.1, w2.1, w3.1), at: at + 16)
                    samples = Self.shifted(s, in: scratch[g])
                    i &+= 4
                }
                continue
            }
            // A frame at a time.
            let s = samples
            let pair = phase < 2 ? Self.interpolate(s, w0.0, w1.0, w2.0, w3.0) : Self.interpolate(s, w0.1, w1.1, w2.1, w3.1)
            Write.put(phase & 1 == 0 ? pair.lowHalf : pair.highHalf, at: out + 2 &* i)
            phase = (phase &+ 1) & 3
            i &+= 1
            if phase == 0 {
                var air = self.air
                air.render(into: scratch, count: 1)
                self.air = air
                samples = Self.shifted(s, in: scratch[0])
            }
        }
        self.samples = samples
        self.phase = phase
    }

    /// Two frames between the middle two of the four samples, by the weights of those frames.
    @inline(__always) private static func interpolate(
        _ s: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        _ w0: SIMD4<Float>, _ w1: SIMD4<Float>, _ w2: SIMD4<Float>, _ w3: SIMD4<Float>
    ) -> SIMD4<Float> {
        s.0 * w0 + s.1 * w1 + s.2 * w2 + s.3 * w3
    }

    /// The four samples one on: the oldest out, `next` (left, right) in as the newest.
    @inline(__always) private static func shifted(
        _ s: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>), in next: SIMD2<Float>
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (s.1, s.2, s.3, SIMD4(lowHalf: next, highHalf: next))
    }
}

/// The fan's sound at a quarter of the output rate: pink noise through the 900 Hz low-pass,
/// beating, with the hum, through the 25 Hz high-pass.
struct FanAir {
    private var random: NoiseRandom
    private var pink = FanPinkFilter()
    private var air: ShortChainStereoBiquad
    private var subsonic: ShortChainStereoSubsonicFilter
    /// The motor's 100 Hz hum and the blades' 13 Hz beat.
    private var oscillators: QuadratureOscillators
    /// A mix's layer gain (`MixLayer`), 1 alone.
    var outputGain: Float = 1

    init(quarterRate: Int, seed: UInt64) {
        random = NoiseRandom(seed: seed)
        air = ShortChainStereoBiquad(Biquad(.lowPass, frequency: 900, q: 0.6, sampleRate: quarterRate))
        subsonic = ShortChainStereoSubsonicFilter(sampleRate: quarterRate)
        oscillators = QuadratureOscillators(SIMD2(100, 13), sampleRate: quarterRate)
    }

    /// The air (noise, pink, low-pass) then the beat, hum and high-pass, each in a loop of its own
    /// over the chunk: in one loop the compiler split the pink filter's vectors into lanes
    /// around the oscillators' double-precision ones (139 instructions a sample, 72 in two).
    mutating func render(into out: UnsafeMutablePointer<SIMD2<Float>>, count: Int) {
        renderAir(into: out, count: count)
        shape(out, count: count)
    }

    /// Not inlined: a loop of its own keeps its vectors whole.
    @inline(never) private mutating func renderAir(into out: UnsafeMutablePointer<SIMD2<Float>>, count: Int) {
        // The filters' state in locals: a class's stored properties mutated per sample pay a
        // dynamic exclusivity check each time, which cost more than the filters. Left and right
        // go through the filters together (`StereoFilters`).
        var random = self.random, pink = self.pink, air = self.air
        for i in 0..<count {
            out[i] = air.processLowPass(pink.process(random.nextStereoUnscaled()))
        }
        self.random = random
        self.pink = pink
        self.air = air
    }

    /// The air in `samples` beating, with the hum added, through the 25 Hz high-pass, in place.
    @inline(never) private mutating func shape(_ samples: UnsafeMutablePointer<SIMD2<Float>>, count: Int) {
        var oscillators = self.oscillators, subsonic = self.subsonic
        // The filters' b0 (which they leave out) and the noise's scale folded into the gains.
        let gain = FanSound.calibration * subsonic.outputScale * outputGain, airGain: Float = 0.5 * air.outputScale * NoiseRandom.unscaledUnit
        for i in 0..<count {
            let (sine, cosine) = oscillators.next()
            let hum = 0.012 * sine.x + 0.006 * (2 * sine.x * cosine.x)
            let beat = 1 + 0.08 * sine.y
            samples[i] = subsonic.process((samples[i] * (beat * airGain) + hum) * gain)
        }
        oscillators.renormalise()
        self.oscillators = oscillators
        self.subsonic = subsonic
    }
}
