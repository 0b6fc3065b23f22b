/// Float samples to signed 16-bit: TPDF-dithered, rounded, clamped. Truncation (`Int16(x)`)
/// left a distortion product ~78 dB below a sine, heard in quiet sounds at night; rounding with
/// ±1 LSB triangular dither turns the quantisation error into a flat, signal-independent hiss
/// ~−98 dBFS instead. Clamped so nothing can wrap round into a crack. One per output stream.
struct PCMConversion {
    private var random: NoiseRandom

    /// `seed`: nil draws one from the system; tests pass one so their output repeats.
    init(seed: UInt64? = nil) { random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed()) }

    mutating func toS16(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Int16>, count: Int) {
        var random = self.random
        var i = 0
        // One 64-bit draw dithers two samples: four 16-bit uniforms, summed in pairs, give each
        // its triangular (TPDF) value in (−1, 1) steps.
        while i &+ 1 < count {
            let bits = random.next()
            output[i] = Self.quantise(input[i] * 32767, dither: Self.triangular(bits))
            output[i &+ 1] = Self.quantise(input[i &+ 1] * 32767, dither: Self.triangular(bits >> 32))
            i &+= 2
        }
        if i < count { output[i] = Self.quantise(input[i] * 32767, dither: Self.triangular(random.next())) }
        self.random = random
    }

    /// The sum of two uniforms from the low 32 bits, minus their mean: −1 < t < 1 steps.
    @inline(__always) static func triangular(_ bits: UInt64) -> Float {
        let a = Float(UInt16(truncatingIfNeeded: bits)), b = Float(UInt16(truncatingIfNeeded: bits >> 16))
        return (a + b) * (1.0 / 65536) - 0.99998474
    }

    /// Digital silence stays digital silence (no dither hiss when nothing plays: the device and
    /// the idle close see zeros). Round to nearest (even) by the 1.5·2²³ trick, which compiles to two adds instead of a
    /// call to `rintf`; the clamp first keeps the trick in its exact range.
    @inline(__always) static func quantise(_ scaled: Float, dither: Float) -> Int16 {
        if scaled == 0 { return 0 }
        let clamped = Swift.min(Swift.max(scaled + dither, -32768), 32767)
        let magic: Float = 12_582_912
        return Int16((clamped + magic) - magic)
    }
}
