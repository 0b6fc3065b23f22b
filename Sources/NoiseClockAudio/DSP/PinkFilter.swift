/// Paul Kellet's refined pink filter: six first-order sections whose sum falls at −3 dB/octave
/// (within ±0.05 dB above 10 Hz), for one channel. Cheap: seven multiply-adds per sample.
struct PinkFilter {
    private var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0, b4: Float = 0, b5: Float = 0, b6: Float = 0

    /// Kellet's filter turns uniform [-1, 1) noise into pink noise of this A-weighted RMS
    /// (its response weighted by the IEC 61672 curve, integrated over 0–24 kHz; RMS 1.762).
    static let outputAWeightedRMS: Float = 1.0937

    @inline(__always) mutating func process(_ white: Float) -> Float {
        b0 = 0.99886 * b0 + white * 0.0555179
        b1 = 0.99332 * b1 + white * 0.0750759
        b2 = 0.96900 * b2 + white * 0.1538520
        b3 = 0.86650 * b3 + white * 0.3104856
        b4 = 0.55000 * b4 + white * 0.5329522
        b5 = -0.7616 * b5 - white * 0.0168980
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
        b6 = white * 0.115926
        return pink
    }
}

/// Pink noise (−3 dB/octave), independent left and right.
public final class PinkNoise: SoundSource {
    private var random: NoiseRandom
    private var left = PinkFilter()
    private var right = PinkFilter()
    private let scale = SoundLevel.noiseLoudness / PinkFilter.outputAWeightedRMS

    public init(seed: UInt64? = nil) { random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed()) }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var random = self.random, left = self.left, right = self.right
        let scale = self.scale
        for i in 0..<frames {
            let (l, r) = random.nextPair()
            out[2 &* i] = left.process(l) * scale
            out[2 &* i &+ 1] = right.process(r) * scale
        }
        self.random = random
        self.left = left
        self.right = right
    }
}
