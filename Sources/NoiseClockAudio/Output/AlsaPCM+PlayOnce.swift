import CALSASilence

extension AlsaPCM {
    /// Opens `device` itself (not the engine's PCM), plays the interleaved stereo `samples` to the
    /// end and closes it; the card it played on, for its mixer. The test chime and `doctor --play`
    /// both play this way. `nonBlocking`: a busy device fails at once instead of being waited for.
    /// Blocking: call it on a thread of its own.
    static func playOnce(_ samples: [Int16], device: String, sampleRate: Int, nonBlocking: Bool) throws(Failure) -> Int32? {
        noiseclock_alsa_silence_errors()
        let pcm = try AlsaPCM(device: device, sampleRate: sampleRate, nonBlocking: nonBlocking)
        let card = pcm.card
        do {
            try samples.withUnsafeBufferPointer { buffer throws(Failure) in
                try pcm.write(buffer.baseAddress!, frames: samples.count / 2)
            }
        } catch {
            pcm.close()
            throw error
        }
        pcm.drainAndClose()
        return card
    }
}
