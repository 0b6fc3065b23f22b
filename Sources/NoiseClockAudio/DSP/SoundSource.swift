/// Anything that produces stereo audio: noises, tones, looped files. Called once per block
/// (never per sample), so the dynamic dispatch costs nothing measurable.
public protocol SoundSource: AnyObject {
    /// Writes `frames` interleaved stereo frames (L R L R ...) into `out`, overwriting it.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int)
}

/// The loudness every noise is calibrated to: A-weighted RMS (IEC 61672, full scale = 1) of
/// −30 dB, so switching sounds keeps the perceived level. Plain RMS would not: brown noise
/// carries far more power where the ear is deaf than white does, so at equal RMS it sounded
/// ~15 dB quieter. The level is set by the sound needing most headroom, brown noise: its RMS
/// is 12 dB above its A-weighted level and it peaks ~15 dB above its RMS, about −3 dBFS.
public enum SoundLevel {
    public static let noiseLoudness: Float = 0.031623
    /// The same level as EBU R128 integrated loudness (LUFS), which recordings are matched to:
    /// what libebur128 measures of the built-in pink noise (`SoundFileTests` checks it).
    public static let noiseLUFS: Double = -23.4
    /// Alarm tones are normalised louder: they must wake.
    public static let toneRMS: Float = 0.25
}
