/// Anything that produces stereo audio: noises, tones, looped files. Called once per block
/// (never per sample), so the dynamic dispatch costs nothing measurable.
public protocol SoundSource: AnyObject {
    /// Writes `frames` interleaved stereo frames (L R L R ...) into `out`, overwriting it.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int)
}

/// The loudness every noise is normalised to (RMS, full scale = 1): −20 dBFS, leaving headroom
/// for the peaks of filtered and modulated noise (rain drops, wave crests reach about −3 dBFS). Equal RMS means switching sounds keeps the level.
public enum SoundLevel {
    public static let noiseRMS: Float = 0.1
    /// Alarm tones are normalised louder: they must wake.
    public static let toneRMS: Float = 0.25
}
