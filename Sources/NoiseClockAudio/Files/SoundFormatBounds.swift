/// What a sound file's header may claim before anything is sized by it. The reader's rate
/// converter and its buffers scale with the ratio of the output rate to the file's: a header
/// saying 1 Hz asked for 196 M frames of buffer per block (3.7 GB in 12 s), one saying
/// 2^31-1 Hz kept the reader spinning for output that never came. So the header is checked
/// when the file is opened (`SoundFile`), by the scanner and by every player alike.
public enum SoundFormatBounds {
    /// From telephone-band recordings to the highest rate studio converters use.
    public static let sampleRates = 8000...384_000
    /// Mono to 7.1; the reader plays the first two.
    public static let channels = 1...8
    /// The loop's crossfade needs a few frames to work with.
    public static let minimumFrames = 64
    /// A hundred hours: any night's recording, and well inside what the frame counter holds.
    public static let maximumSeconds = 100 * 3600

    /// Why a header with these figures is not played, or nil when it may be.
    public static func problem(sampleRate: Int, channels: Int, frames: Int) -> String? {
        guard Self.sampleRates.contains(sampleRate) else {
            return "sample rate \(sampleRate) Hz is outside \(Self.sampleRates.lowerBound)-\(Self.sampleRates.upperBound) Hz"
        }
        guard Self.channels.contains(channels) else {
            return "\(channels) channels is outside \(Self.channels.lowerBound)-\(Self.channels.upperBound)"
        }
        guard frames >= Self.minimumFrames else { return "file is too short to loop (\(frames) frames, at least \(Self.minimumFrames))" }
        guard frames / sampleRate <= Self.maximumSeconds else {
            return "file is longer than \(Self.maximumSeconds / 3600) hours (\(frames / sampleRate / 3600) h)"
        }
        return nil
    }
}
