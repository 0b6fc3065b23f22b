/// Brown noise (−6 dB/octave): a leaky integrator of white noise. The leak (a pole at 10 Hz)
/// keeps it DC-free and bounded, where a pure integrator would wander off.
public final class BrownNoise: SoundSource {
    private var random: NoiseRandom
    private var left: Float = 0
    private var right: Float = 0
    private let pole: Float
    private let inputGain: Float

    public init(sampleRate: Int, seed: UInt64? = nil) {
        random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed())
        let corner: Float = 10
        pole = 1 - 2 * Float.pi * corner / Float(sampleRate)
        // Variance of y = a·y + g·w is g²σ²/(1 − a²); σ² of uniform [-1, 1) is 1/3.
        inputGain = SoundLevel.noiseRMS * (1 - pole * pole).squareRoot() * 1.7320508
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var random = self.random, left = self.left, right = self.right
        let pole = self.pole, gain = self.inputGain
        for i in 0..<frames {
            let (l, r) = random.nextPair()
            left = pole * left + gain * l
            right = pole * right + gain * r
            out[2 &* i] = left
            out[2 &* i &+ 1] = right
        }
        self.random = random
        self.left = left
        self.right = right
    }
}
