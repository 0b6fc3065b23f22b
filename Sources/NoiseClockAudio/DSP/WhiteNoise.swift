/// Flat-spectrum noise, independent left and right.
public final class WhiteNoise: SoundSource {
    private var random: NoiseRandom
    /// Uniform noise in [-1, 1) has RMS 1/√3.
    private let scale = SoundLevel.noiseRMS * 1.7320508

    public init(seed: UInt64? = nil) { random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed()) }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var random = self.random
        let scale = self.scale
        for i in 0..<frames {
            let (l, r) = random.nextPair()
            out[2 &* i] = l * scale
            out[2 &* i &+ 1] = r * scale
        }
        self.random = random
    }
}
