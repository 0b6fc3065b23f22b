/// Float samples to signed 16-bit: TPDF-dithered, rounded, clamped. Truncation (`Int16(x)`)
/// left a distortion product ~78 dB below a sine, heard in quiet sounds at night; rounding with
/// ±1 LSB triangular dither turns the quantisation error into a flat, signal-independent hiss
/// ~−98 dBFS instead. Clamped so nothing can wrap round into a crack. One per output stream.
struct PCMConversion {
    private var random: NoiseRandom

    /// `seed`: nil draws one from the system; tests pass one so their output repeats.
    init(seed: UInt64? = nil) { random = NoiseRandom(seed: seed ?? NoiseRandom.systemSeed()) }

    /// Eight samples at a time in vectors: two 64-bit draws give sixteen 8-bit uniforms, summed
    /// in pairs (the two bytes of each 16-bit lane) into eight triangular values (steps of 1/256 of an LSB: finer than any converter
    /// resolves). This is most of the real-time cost of a cheap noise after the wake-ups, so it
    /// does per eight samples what the scalar form did per one or two.
    mutating func toS16(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Int16>, count: Int) {
        var random = self.random
        var i = 0
        while i &+ 8 <= count {
            let bytes = unsafeBitCast((random.next(), random.next()), to: SIMD8<UInt16>.self)
            let samples = UnsafeRawPointer(input + i).loadUnaligned(as: SIMD8<Float>.self)
            let result = Self.quantise(samples, dither: Self.triangular(bytes))
            UnsafeMutableRawPointer(output + i).storeBytes(of: result, as: SIMD8<Int16>.self)
            i &+= 8
        }
        if i < count {
            var samples = SIMD8<Float>(), result = SIMD8<Int16>()
            for k in 0..<(count &- i) { samples[k] = input[i &+ k] }
            let bytes = unsafeBitCast((random.next(), random.next()), to: SIMD8<UInt16>.self)
            result = Self.quantise(samples, dither: Self.triangular(bytes))
            for k in 0..<(count &- i) { output[i &+ k] = result[k] }
        }
        self.random = random
    }

    /// Each 16-bit lane's two bytes, uniforms on 0…255, summed less their mean: −1 < t < 1
    /// steps, triangular.
    @inline(__always) static func triangular(_ pairs: SIMD8<UInt16>) -> SIMD8<Float> {
        let sum = (pairs & 0xFF) &+ (pairs &>> 8)
        let centred = unsafeBitCast(SIMD8<UInt32>(truncatingIfNeeded: sum), to: SIMD8<Int32>.self) &- 255
        return SIMD8<Float>(centred) * (1.0 / 256)
    }

    /// Digital silence stays digital silence (no dither hiss when nothing plays: the device and
    /// the idle close see zeros). Round to nearest (even) by adding 1.5·2²³: the sum's low
    /// mantissa bits are then the integer itself, read off as bits instead of converted (the
    /// clamp first keeps the trick in its exact range).
    @inline(__always) static func quantise(_ samples: SIMD8<Float>, dither: SIMD8<Float>) -> SIMD8<Int16> {
        let scaled = samples * 32767
        var clamped = scaled + dither
        clamped.replace(with: 32767, where: clamped .> 32767)
        clamped.replace(with: -32768, where: clamped .< -32768)
        let magic: Float = 12_582_912
        let bits = unsafeBitCast(clamped + magic, to: SIMD8<Int32>.self) &- Int32(bitPattern: magic.bitPattern)
        return SIMD8<Int16>(truncatingIfNeeded: bits.replacing(with: 0, where: scaled .== 0))
    }
}
