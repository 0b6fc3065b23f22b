/// Keeps the audio thread at real time on sinks that never block (ALSA `null`, `file`):
/// after each write it sleeps while more than one buffer ahead of the monotonic clock. On a
/// real device the blocking write paces first and this never sleeps.
struct Pacer {
    private let sampleRate: Int
    private var start = 0.0
    private var frames = 0
    private var bufferSeconds = 0.1

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    mutating func reset(bufferFrames: Int) {
        start = Clocks.monotonicSeconds()
        frames = 0
        bufferSeconds = Double(bufferFrames) / Double(sampleRate)
    }

    mutating func wrote(frames count: Int) {
        frames += count
        let audioSeconds = Double(frames) / Double(sampleRate)
        let elapsed = Clocks.monotonicSeconds() - start
        let ahead = audioSeconds - elapsed
        if ahead > bufferSeconds {
            Clocks.sleep(seconds: ahead - bufferSeconds)
        } else if ahead < -1 {
            // Far behind (a stall, a suspend): start counting afresh instead of rushing to catch up.
            start = Clocks.monotonicSeconds()
            frames = 0
        }
    }
}
