#if canImport(Glibc)
import Glibc
#endif
import CEBUR128

/// Brings a station near the noises' loudness (`SoundLevel.noiseLUFS`) by a running EBU R128
/// estimate, so a station plays at the level brown noise does at the same volume, and the sleep
/// radio's fade to brown and back is a change of sound, not of level (docs/sounds.md, "Loudness").
///
/// Fed on the player's thread with what it writes into the ring (so the estimate always leads
/// what plays): libebur128's momentary loudness (400 ms, K-weighted) every 100 ms. The estimate is
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

    private var state: UnsafeMutablePointer<ebur128_state>?
    private let blockFrames: Int
    private var framesInBlock = 0
    private var blocks = 0
    /// The running estimate, LUFS (nil until a first block passed the gates).
    private(set) var loudness: Double?
    /// The largest recent sample, decaying 6 dB in 10 s.
    private var peak = 0.0
    private let peakDecay: Double

    /// The gain to apply now (1 until a first block is measured).
    private(set) var gain = 1.0

    init?(sampleRate: Int) {
        guard let state = ebur128_init(2, UInt(sampleRate), Int32(EBUR128_MODE_M.rawValue)) else { return nil }
        self.state = state
        blockFrames = Int(Self.blockSeconds * Double(sampleRate))
        peakDecay = pow(0.5, Self.blockSeconds / 10)
    }

    deinit { ebur128_destroy(&state) }

    /// Measures `count` interleaved stereo frames; returns the gain to apply from now on.
    @discardableResult
    func measure(_ frames: UnsafePointer<Float>, count: Int) -> Double {
        var done = 0
        while done < count {
            let take = min(count - done, blockFrames - framesInBlock)
            ebur128_add_frames_float(state, frames + 2 * done, take)
            for index in (2 * done)..<(2 * (done + take)) { peak = max(peak, Double(abs(frames[index]))) }
            done += take
            framesInBlock += take
            if framesInBlock == blockFrames {
                framesInBlock = 0
                endBlock()
            }
        }
        return gain
    }

    private func endBlock() {
        blocks += 1
        peak *= peakDecay
        var momentary = -Double.infinity
        // The first 400 ms make the first whole momentary block.
        guard blocks >= 4, ebur128_loudness_momentary(state, &momentary) == EBUR128_SUCCESS.rawValue,
              momentary.isFinite, momentary > Self.absoluteGateLUFS else { return }
        if let current = loudness, momentary < current - Self.relativeGateLU { return }
        let measured = blocks - 3
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
