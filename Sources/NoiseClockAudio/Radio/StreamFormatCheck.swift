/// Follows a stream's decoded format block by block (`StreamFormatLimits`): a rate or channel
/// count out of bounds, or a change sooner than `secondsBetweenChanges` of audio after the last
/// one, is a breach, and the stream ends. Time is the stream's own (frames / rate), so a server
/// cannot buy more changes by sending faster. Used by one thread.
struct StreamFormatCheck {
    private var format: (rate: Int, channels: Int)?
    /// Seconds of audio decoded, and when (in them) the format last changed.
    private var seconds = 0.0
    private var lastChange: Double?
    private(set) var breach: String?

    /// Takes a block of `frames` at `rate` and `channels`: true when it may be played.
    mutating func admit(frames: Int, rate: Int, channels: Int) -> Bool {
        guard breach == nil else { return false }
        if let problem = StreamFormatLimits.problem(sampleRate: rate, channels: channels) {
            breach = problem
            return false
        }
        if let format, format != (rate, channels) {
            if let lastChange, seconds - lastChange < StreamFormatLimits.secondsBetweenChanges {
                breach = "format changed twice within a second (\(format.rate) Hz, \(format.channels) ch to \(rate) Hz, \(channels) ch)"
                return false
            }
            lastChange = seconds
        }
        format = (rate, channels)
        seconds += Double(max(0, frames)) / Double(rate)
        return true
    }
}
