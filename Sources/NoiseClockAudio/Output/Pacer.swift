/// When the audio thread writes its next period. A device that plays in real time says so
/// itself (the room it has, `snd_pcm_avail_update`); a sink that never blocks (ALSA `null`,
/// `file` over `null`) has room for a whole buffer at once, so there the thread keeps one buffer
/// ahead of the monotonic clock instead. Either way the thread waits on its wake signal rather
/// than in a blocking write, so news (an utterance, a scene) cuts the wait short.
struct Pacer {
    private let sampleRate: Int
    private var start = 0.0
    private var frames = 0
    private var bufferFrames = 4800
    /// The sink kept what was written (a real device): its room paces; else the clock does.
    private var sinkPlaysInRealTime = false
    /// Behind the clock now (the sink would have run dry), and how many times it fell behind
    /// since `takeLateWrites`: a real device reports its own underruns (`AlsaPCM`); a sink that
    /// never blocks cannot, so the pacer counts the writes that came after their deadline.
    private var behind = false
    private var lateWrites = 0

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    mutating func reset(bufferFrames: Int) {
        start = Clocks.monotonicSeconds()
        frames = 0
        self.bufferFrames = bufferFrames
        sinkPlaysInRealTime = false
        behind = false
    }

    /// The writes that came after the clock-paced sink had run dry, since the last call.
    mutating func takeLateWrites() -> Int {
        defer { lateWrites = 0 }
        return lateWrites
    }

    /// After a write: `available` is the sink's room right after it.
    mutating func wrote(frames count: Int, available: Int) {
        frames += count
        if available >= 0 { sinkPlaysInRealTime = available < bufferFrames }
    }

    /// Seconds to wait before `chunk` frames can be written (0: now). `available` is the sink's
    /// room now (negative after an underrun: write at once, the write recovers). Chunks shorter
    /// than the `period` keep the same fill (a buffer and a period at most, as a blocking write
    /// of periods would), written in finer steps.
    mutating func secondsToWait(chunk: Int, period: Int, available: Int) -> Double {
        if sinkPlaysInRealTime {
            guard available >= 0, available < chunk else { return 0 }
            // A millisecond more, so one wait is enough when the device's clock runs a little slow.
            return Double(chunk - available) / Double(sampleRate) + 0.001
        }
        let ahead = Double(frames) / Double(sampleRate) - (Clocks.monotonicSeconds() - start)
        let buffer = Double(bufferFrames) / Double(sampleRate)
        // Once per fall: the write that follows is late (what was written has all played).
        if frames > 0, ahead < 0, !behind { lateWrites += 1 }
        behind = frames > 0 && ahead < 0
        if ahead < -1 {
            // Far behind (a stall, a suspend): start counting afresh instead of rushing to catch up.
            start = Clocks.monotonicSeconds()
            frames = 0
            return 0
        }
        // Write once the chunk fits below a buffer and a period ahead.
        return max(0, ahead + Double(chunk - period) / Double(sampleRate) - buffer)
    }
}
