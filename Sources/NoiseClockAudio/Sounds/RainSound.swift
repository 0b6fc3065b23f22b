/// Rain: a bed of high-passed pink noise (the hiss of many distant drops) plus sparse close
/// drops (short decaying bursts of bright noise at random moments), with slow gusts.
public final class RainSound: SoundSource {
    private var random: NoiseRandom
    private var pink = StereoPinkFilter()
    /// The bed's 400 Hz high-pass and the drops' 3.5 kHz band-pass, side by side.
    private var filters: StereoBiquadPair
    /// The close drops' envelopes, left and right.
    private var envelope = SIMD2<Float>()
    private var gust: Float = 1, gustTarget: Float = 1
    private var framesToNextGust = 0
    private let dropChance: Float
    private let dropDecay: Float
    private let sampleRate: Int
    /// A-weighted RMS of this generator before calibration, measured over minutes of `render`
    /// (Welch spectrum weighted by the IEC 61672 curve); the calibration brings it to the
    /// common loudness.
    static let measuredAWeightedRMS: Float = 0.3000
    static let calibration: Float = SoundLevel.noiseLoudness / measuredAWeightedRMS

    public init(sampleRate: Int, seed: UInt64? = nil) {
        self.sampleRate = sampleRate
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        filters = StereoBiquadPair(
            Biquad(.highPass, frequency: 400, sampleRate: sampleRate), Biquad(.bandPass, frequency: 3500, q: 0.8, sampleRate: sampleRate)
        )
        dropChance = 40 / Float(sampleRate)  // about 40 close drops a second per channel
        dropDecay = 1 - 1 / (0.004 * Float(sampleRate))  // 4 ms drops
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        // All state in locals for the block (as `PinkNoise` does): a class's stored properties
        // mutated per sample pay a dynamic exclusivity check each time. Left and right go
        // through the filters together (`StereoFilters`): the same samples, half the instructions.
        var random = self.random
        var pink = self.pink, filters = self.filters
        var envelope = self.envelope, gust = self.gust, gustTarget = self.gustTarget
        var framesToNextGust = self.framesToNextGust
        let dropChance = self.dropChance, dropDecay = self.dropDecay, sampleRate = self.sampleRate
        let bedGain: Float = 0.26 * Self.calibration, dropGain: Float = 0.7 * Self.calibration
        for i in 0..<frames {
            if framesToNextGust <= 0 {
                // A new gust level every ~2 s; the level glides there.
                gustTarget = 0.75 + 0.5 * random.nextUnit()
                framesToNextGust = sampleRate * 2
            }
            framesToNextGust -= 1
            gust += (gustTarget - gust) * 0.00002
            let white = random.nextStereo()
            if random.nextUnit() < dropChance { envelope.x += 0.5 + random.nextUnit() }
            if random.nextUnit() < dropChance { envelope.y += 0.5 + random.nextUnit() }
            envelope *= dropDecay
            let (bed, drop) = filters.process(pink.process(white), white * envelope)
            let y = bed * bedGain * gust + drop * dropGain
            out[2 &* i] = y.x
            out[2 &* i &+ 1] = y.y
        }
        self.random = random
        self.pink = pink
        self.filters = filters
        self.envelope = envelope
        self.gust = gust
        self.gustTarget = gustTarget
        self.framesToNextGust = framesToNextGust
    }
}
