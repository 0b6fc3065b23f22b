/// Pink noise for rain's bed, which goes on through a 400 Hz high-pass: three first-order
/// sections where Kellet's `PinkFilter` has six, left and right in one `SIMD2`. Kellet's six
/// were fitted over the whole band; heard through the high-pass only the shape above about
/// 400 Hz matters, and three sections fitted there (least squares on the dB difference from
/// `PinkFilter`, 450 Hz–24 kHz, the octaves below weighted less) sound the same: after the
/// high-pass the octaves 500 Hz–16 kHz lie within 0.04 dB of the six-section bed, those below
/// (9 dB and more down) within 0.5 dB (docs/performance.md, 2026-11-26). Three sections fewer
/// a frame in rain's loop, the dearest part of a mix (issue 19). Not for a sound heard below
/// 400 Hz.
struct RainPinkFilter {
    /// Each section's state times its pole, as `FanPinkFilter` keeps it (the same filter): the
    /// output sums the states as they were.
    private var t0 = SIMD2<Float>(), t1 = SIMD2<Float>(), t2 = SIMD2<Float>(), delayed = SIMD2<Float>()

    @inline(__always) mutating func process(_ white: SIMD2<Float>) -> SIMD2<Float> {
        // 1.64673577 = 0.66313136 (direct) + 0.17099974 + 0.27604115 + 0.53656352 (the sections'
        // gains g); the sections' inputs are p·g: 0.99282807 × 0.17099974 and so on.
        let y = ((white * 1.64673577 + delayed) + t0) + (t1 + t2)
        t0 = 0.99282807 * t0 + white * 0.16977334
        t1 = 0.93010473 * t1 + white * 0.25674718
        t2 = 0.68045324 * t2 + white * 0.36510639
        delayed = white * 0.17591353
        return y
    }
}

/// Pink noise for the fan, made at a quarter of the output rate (12 kHz at 48 kHz) and heard
/// between its 25 Hz high-pass and its 900 Hz low-pass: three first-order sections fitted there
/// (20 Hz–1.5 kHz weighted most) in place of `PinkFilter`'s six, whose lowest two lie
/// below the high-pass and whose last shapes the band near the quarter rate's Nyquist
/// frequency, 40 dB below the body. The octaves 31.5 Hz–1 kHz lie within 0.05 dB of the
/// six-section fan, 2 and 4 kHz within 0.15 dB (docs/performance.md, 2026-11-26).
struct FanPinkFilter {
    /// Each section's state times its pole (`t = p·s`): the output is then the direct terms plus
    /// the states as they were, and no section's update waits for another's sum. The same
    /// filter (s = t + g·w, so y = (gd + Σg)·w + delayed + Σt, and t' = p·t + p·g·w), but with
    /// the output summed from the new states the compiler split the vectors into lanes around
    /// that sum: 81 instructions a sample in the fan's loop, 54 this way.
    private var t0 = SIMD2<Float>(), t1 = SIMD2<Float>(), t2 = SIMD2<Float>(), delayed = SIMD2<Float>()

    @inline(__always) mutating func process(_ white: SIMD2<Float>) -> SIMD2<Float> {
        // 1.65008526 = 0.73208879 (direct) + 0.16972975 + 0.23677091 + 0.51149581 (the sections'
        // gains g); the sections' inputs are p·g: 0.98941039 × 0.16972975 and so on.
        let y = ((white * 1.65008526 + delayed) + t0) + (t1 + t2)
        t0 = 0.98941039 * t0 + white * 0.16793238
        t1 = 0.93780460 * t1 + white * 0.22204485
        t2 = 0.72161156 * t2 + white * 0.36910129
        delayed = white * 0.21470153
        return y
    }
}
