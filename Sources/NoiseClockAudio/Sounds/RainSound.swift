/// Rain: a bed of high-passed pink noise (the hiss of many distant drops) plus sparse close
/// drops (short decaying bursts of bright noise at random moments), with slow gusts.
public final class RainSound: SoundSource {
    private var random: NoiseRandom
    private var pinkL = PinkFilter(), pinkR = PinkFilter()
    private var bedL: Biquad, bedR: Biquad
    private var dropL: Biquad, dropR: Biquad
    private var envL: Float = 0, envR: Float = 0
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
        bedL = Biquad(.highPass, frequency: 400, sampleRate: sampleRate)
        bedR = bedL
        dropL = Biquad(.bandPass, frequency: 3500, q: 0.8, sampleRate: sampleRate)
        dropR = dropL
        dropChance = 40 / Float(sampleRate)  // about 40 close drops a second per channel
        dropDecay = 1 - 1 / (0.004 * Float(sampleRate))  // 4 ms drops
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        // All state in locals for the block (as `PinkNoise` does): a class's stored properties
        // mutated per sample pay a dynamic exclusivity check each time.
        var random = self.random
        var pinkL = self.pinkL, pinkR = self.pinkR, bedL = self.bedL, bedR = self.bedR, dropL = self.dropL, dropR = self.dropR
        var envL = self.envL, envR = self.envR, gust = self.gust, gustTarget = self.gustTarget
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
            let (wl, wr) = random.nextPair()
            if random.nextUnit() < dropChance { envL += 0.5 + random.nextUnit() }
            if random.nextUnit() < dropChance { envR += 0.5 + random.nextUnit() }
            envL *= dropDecay
            envR *= dropDecay
            let bl = bedL.process(pinkL.process(wl)) * bedGain * gust
            let br = bedR.process(pinkR.process(wr)) * bedGain * gust
            out[2 &* i] = bl + dropL.process(wl * envL) * dropGain
            out[2 &* i &+ 1] = br + dropR.process(wr * envR) * dropGain
        }
        self.random = random
        self.pinkL = pinkL
        self.pinkR = pinkR
        self.bedL = bedL
        self.bedR = bedR
        self.dropL = dropL
        self.dropR = dropR
        self.envL = envL
        self.envR = envR
        self.gust = gust
        self.gustTarget = gustTarget
        self.framesToNextGust = framesToNextGust
    }
}
