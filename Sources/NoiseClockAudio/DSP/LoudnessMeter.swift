#if canImport(Glibc)
import Glibc
#endif
import CEBUR128

/// A recording's loudness per EBU R128 / ITU-R BS.1770 (libebur128): gated integrated loudness
/// in LUFS, and its sample peak, to bring every file to the noises' level.
public struct Loudness: Equatable, Sendable {
    /// Integrated loudness, LUFS.
    public var lufs: Double
    /// Largest absolute sample, full scale = 1.
    public var peak: Double

    /// The gain that brings the recording to the noises' loudness, unless that pushes its peaks
    /// past −1 dBFS (or lifts near-silence by more than 24 dB).
    public var gain: Float {
        let toTarget = pow(10, (SoundLevel.noiseLUFS - lufs) / 20)
        return Float(min(toTarget, 0.89 / max(peak, 1e-9), 16))
    }
}

enum LoudnessMeter {
    struct Failure: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    /// Measures the file (its first `maxSeconds` when given) from disk, in blocks: memory stays
    /// flat whatever its length. `cancelled` is asked between blocks (a source being dropped
    /// must not keep the audio thread waiting for a whole measurement).
    static func measure(path: String, maxSeconds: Double? = nil, cancelled: () -> Bool = { false }) throws(Failure) -> Loudness {
        let file: SoundFile
        do { file = try SoundFile(path: path) } catch { throw Failure(description: error.description) }
        guard let state = ebur128_init(2, UInt(file.sampleRate), Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue)) else {
            throw Failure(description: "libebur128 cannot measure at \(file.sampleRate) Hz")
        }
        var handle: UnsafeMutablePointer<ebur128_state>? = state
        defer { ebur128_destroy(&handle) }
        let block = 8192
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * 2)
        defer { buffer.deallocate() }
        var remaining = maxSeconds.map { Int($0 * Double(file.sampleRate)) } ?? file.frames
        while remaining > 0 {
            if cancelled() { throw Failure(description: "cancelled") }
            let read = file.read(into: buffer, frames: min(block, remaining))
            if read == 0 { break }
            ebur128_add_frames_float(state, buffer, read)
            remaining -= read
        }
        var lufs = 0.0, left = 0.0, right = 0.0
        ebur128_loudness_global(state, &lufs)
        ebur128_sample_peak(state, 0, &left)
        ebur128_sample_peak(state, 1, &right)
        guard lufs.isFinite, lufs > -70 else { throw Failure(description: "file is silent") }
        return Loudness(lufs: lufs, peak: max(left, right))
    }
}
