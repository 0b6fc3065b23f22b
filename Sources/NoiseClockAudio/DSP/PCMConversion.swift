/// Float samples to signed 16-bit: TPDF-dithered, rounded, clamped. Truncation (`Int16(x)`)
/// left a distortion product ~78 dB below a sine, heard in quiet sounds at night; rounding with
/// ±1 LSB triangular dither turns the quantisation error into a flat, signal-independent hiss
/// ~−98 dBFS instead. Clamped so nothing can wrap round into a crack. One per output stream.
struct PCMConversion {
    private var random: NoiseRandom

    /// `seed`: nil draws one from the system; tests pass one so their output repeats.
    init(seed: UInt64? = nil) { random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed()) }

    mutating func toS16(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Int16>, count: Int) {
        var i = 0
        while i < count {
            // Two uniforms per sample summed give the triangular density; one 64-bit draw
            // yields both halves, so a stereo frame costs two draws.
            let (a, b) = random.nextPair()
            output[i] = Self.quantise(input[i] * 32767 + (a + b) * 0.5)
            i &+= 1
        }
    }

    @inline(__always) static func quantise(_ scaled: Float) -> Int16 {
        Int16(min(max(scaled.rounded(.toNearestOrEven), -32768), 32767))
    }
}
