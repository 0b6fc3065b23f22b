#if canImport(Glibc)
import Glibc
#endif

/// Brings a station near the noises' loudness (`SoundLevel.noiseLUFS`) by a running EBU R128
/// estimate, so a station plays at the level brown noise does at the same volume, and the sleep
/// radio's fade to brown and back is a change of sound, not of level (docs/sounds.md, "Loudness").
///
/// Fed on the player's thread with what it writes into the ring (so the estimate always leads
/// what plays): the momentary loudness (400 ms, K-weighted, `HalfRateMomentaryLoudness`: every
/// other frame, an eighth of libebur128's cost at the full rate) every 100 ms. The estimate is
/// a gated running mean of those blocks' loudness in LU: the plain mean over the first 3 s, then
/// an exponential one, as an AGC does: a station turning louder (an advert, a change of programme)
/// is followed with a 2 s time constant, so a sleeper is not blasted for long, one turning
/// quieter with 15 s, so speech and music are not ridden phrase by phrase (no pumping). Blocks
/// below −70 LUFS (silence) and more than 20 LU below the estimate (pauses, quiet passages) are
/// left out, so a pause is never lifted. The gain is capped at ±12 dB and at what keeps the recent
/// peaks under −1 dBFS. `StationSource` applies it on the audio thread, turning down at most
/// 10 dB a second and up at most 3.
final class StationLeveller {
    /// ±12 dB: a station far off the target is brought most of the way, no further.
    static let maxGain = 4.0
    static let minGain = 0.25
    /// What the recent peaks may reach after the gain: −1 dBFS, as for files (`Loudness.gain`).
    static let peakCeiling = 0.89
    static let blockSeconds = 0.1
    static let settleBlocks = 30
    static let louderTimeConstantSeconds = 2.0
    static let quieterTimeConstantSeconds = 15.0
    static let relativeGateLU = 20.0
    static let absoluteGateLUFS = -70.0

    private var meter: HalfRateMomentaryLoudness
    private var blocks = 0
    /// The running estimate, LUFS (nil until a first block passed the gates).
    private(set) var loudness: Double?
    /// The largest recent sample, decaying 6 dB in 10 s.
    private var peak = 0.0
    /// The largest sample of the block in progress.
    private var blockPeak: Float = 0
    private let peakDecay: Double

    /// The gain to apply now (1 until a first block is measured).
    private(set) var gain = 1.0

    init?(sampleRate: Int) {
        guard sampleRate >= 8000 else { return nil }
        meter = HalfRateMomentaryLoudness(sampleRate: sampleRate)
        peakDecay = pow(0.5, Self.blockSeconds / 10)
    }

    /// Measures `count` interleaved stereo frames; returns the gain to apply from now on.
    @discardableResult
    func measure(_ frames: UnsafePointer<Float>, count: Int) -> Double {
        var done = 0
        while done < count {
            // The peak a block at a time, so each block's end sees its own samples.
            let take = min(count - done, meter.blockFrames - meter.framesInBlock)
            blockPeak = max(blockPeak, Self.peak(frames + 2 * done, count: take))
            meter.add(frames + 2 * done, count: take) { momentary in endBlock(momentary) }
            if meter.framesInBlock == 0 { blockPeak = 0 }
            done += take
        }
        return gain
    }

    /// The largest magnitude of `count` stereo frames, eight samples abreast: the sign bit
    /// masked off and the lanes compared as integers (a float's order for magnitudes), since
    /// `pointwiseMax` of floats handles NaN lane by lane and does not vectorise. NaN, whose bits
    /// order above infinity, is left out.
    private static func peak(_ frames: UnsafePointer<Float>, count: Int) -> Float {
        let samples = 2 * count, whole = samples / 8
        let magnitude = SIMD8<UInt32>(repeating: 0x7FFF_FFFF), infinity = SIMD8<UInt32>(repeating: 0x7F80_0000)
        var lanes = SIMD8<UInt32>()
        let raw = UnsafeRawPointer(frames)
        for i in 0..<whole {
            let bits = raw.loadUnaligned(fromByteOffset: 32 &* i, as: SIMD8<UInt32>.self) & magnitude
            lanes.replace(with: bits, where: (bits .> lanes) .& (bits .<= infinity))
        }
        var top = Float(bitPattern: lanes.max())
        for i in (8 * whole)..<samples where !frames[i].isNaN { top = max(top, abs(frames[i])) }
        return top
    }

    private func endBlock(_ momentary: Double) {
        blocks += 1
        peak = max(peak, Double(blockPeak)) * peakDecay
        // The meter gives a block once its first whole 400 ms are in.
        guard momentary.isFinite, momentary > Self.absoluteGateLUFS else { return }
        if let current = loudness, momentary < current - Self.relativeGateLU { return }
        let measured = blocks
        let estimate: Double
        if let current = loudness {
            let timeConstant = momentary > current ? Self.louderTimeConstantSeconds : Self.quieterTimeConstantSeconds
            let weight = measured <= Self.settleBlocks ? 1 / Double(measured) : Self.blockSeconds / timeConstant
            estimate = current + weight * (momentary - current)
        } else {
            estimate = momentary
        }
        loudness = estimate
        let toTarget = pow(10, (SoundLevel.noiseLUFS - estimate) / 20)
        gain = min(max(toTarget, Self.minGain), Self.maxGain, Self.peakCeiling / max(peak, 1e-9))
    }
}
