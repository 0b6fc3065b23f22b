/// Flat-spectrum noise, independent left and right.
public final class WhiteNoise: SoundSource {
    private var random: NoiseRandom
    /// Uniform noise in [-1, 1) has RMS 1/√3 and, flat to 24 kHz, A-weighted RMS 0.4220 (the
    /// IEC 61672 curve integrated over 0–24 kHz).
    static let unitAWeightedRMS: Float = 0.4220
    private let scale = SoundLevel.noiseLoudness / unitAWeightedRMS

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
