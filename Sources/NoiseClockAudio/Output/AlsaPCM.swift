import CALSA
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// One open ALSA playback PCM: S16_LE, stereo, interleaved, blocking writes.
/// Used only by the audio thread.
final class AlsaPCM {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// ALSA's negative error code (`-EBUSY`: another program holds the device).
        var code: Int32
        init(_ what: String, _ code: Int32) {
            description = "\(what): \(String(cString: snd_strerror(code)))"
            self.code = code
        }
        init(description: String, code: Int32) {
            self.description = description
            self.code = code
        }
    }

    let handle: OpaquePointer
    let bufferFrames: Int
    let periodFrames: Int
    /// Underruns and suspends `write` recovered from since the engine last took the count
    /// (`takeRecoveries`): each one an audible gap.
    private var recoveries = 0

    /// `latencyMicroseconds` is the buffer ALSA keeps filled: large enough to ride out a busy
    /// machine. `periods` per buffer set how often the audio thread wakes: each wake-up costs more
    /// than rendering a period of brown noise, so two of 150 ms (7 a second) rather than ALSA's
    /// usual four. The buffer does not make a new sound late: an utterance, an alarm's ring or a
    /// preview is written over what is queued (`OutputWriter.rewrite`), and the thread waits on
    /// its wake signal, so it hears of them at once.
    /// `nonBlocking`: a busy device fails at once (`-EBUSY`) instead of waiting (`noiseclock doctor`,
    /// the web app's test chime); its writes block as usual.
    init(device: String, sampleRate: Int, latencyMicroseconds: UInt32 = 300_000, periods: UInt32 = 2, nonBlocking: Bool = false) throws(Failure) {
        // The last line before ALSA, whatever path the name came by: a definition (`file:…`,
        // `tee:…`) would make ALSA write a file; only names are opened (`SoundDeviceName`).
        if let problem = SoundDeviceName.problem(device) { throw Failure(description: "cannot open \(device): \(problem)", code: -EINVAL) }
        var pcm: OpaquePointer?
        let opened = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, nonBlocking ? SND_PCM_NONBLOCK : 0)
        guard opened >= 0, let pcm else { throw Failure("cannot open \(device)", opened) }
        if nonBlocking { snd_pcm_nonblock(pcm, 0) }
        let configured = Self.configure(pcm, sampleRate: UInt32(sampleRate), latency: latencyMicroseconds, periods: periods)
        guard configured >= 0 else {
            snd_pcm_close(pcm)
            throw Failure("cannot configure \(device) for S16_LE stereo at \(sampleRate) Hz", configured)
        }
        var buffer: snd_pcm_uframes_t = 0, period: snd_pcm_uframes_t = 0
        _ = snd_pcm_get_params(pcm, &buffer, &period)
        handle = pcm
        bufferFrames = buffer > 0 ? Int(buffer) : sampleRate / 10
        periodFrames = period > 0 ? min(Int(period), 8192) : 1024
    }

    /// What `snd_pcm_set_params` does, with the number of periods chosen: S16_LE stereo
    /// interleaved at `sampleRate` (resampled by ALSA if the device needs it), the buffer near
    /// `latency`, playback starting once the buffer is full, woken a period at a time.
    private static func configure(_ pcm: OpaquePointer, sampleRate: UInt32, latency: UInt32, periods: UInt32) -> Int32 {
        var hardware: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hardware) >= 0, let hardware else { return -ENOMEM }
        defer { snd_pcm_hw_params_free(hardware) }
        var bufferTime = latency, periodCount = periods
        for step in [
            { snd_pcm_hw_params_any(pcm, hardware) },
            { snd_pcm_hw_params_set_rate_resample(pcm, hardware, 1) },
            { snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED) },
            { snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_S16_LE) },
            { snd_pcm_hw_params_set_channels(pcm, hardware, 2) },
            { snd_pcm_hw_params_set_rate(pcm, hardware, sampleRate, 0) },
            { snd_pcm_hw_params_set_buffer_time_near(pcm, hardware, &bufferTime, nil) },
            { snd_pcm_hw_params_set_periods_near(pcm, hardware, &periodCount, nil) },
            { snd_pcm_hw_params(pcm, hardware) },
        ] as [() -> Int32] {
            let result = step()
            if result < 0 { return result }
        }
        var software: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&software) >= 0, let software else { return -ENOMEM }
        defer { snd_pcm_sw_params_free(software) }
        var buffer: snd_pcm_uframes_t = 0, period: snd_pcm_uframes_t = 0
        _ = snd_pcm_get_params(pcm, &buffer, &period)
        for step in [
            { snd_pcm_sw_params_current(pcm, software) },
            { snd_pcm_sw_params_set_start_threshold(pcm, software, period > 0 ? buffer / period * period : buffer) },
            { snd_pcm_sw_params_set_avail_min(pcm, software, period) },
            { snd_pcm_sw_params(pcm, software) },
        ] as [() -> Int32] {
            let result = step()
            if result < 0 { return result }
        }
        return 0
    }

    /// Writes all `frames`; recovers from underruns (-EPIPE) and suspends (-ESTRPIPE) in place.
    /// Anything else (device unplugged) throws: the caller closes and reopens.
    func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(Failure) {
        var done = 0
        while done < frames {
            let written = snd_pcm_writei(handle, samples + done * 2, snd_pcm_uframes_t(frames - done))
            if written >= 0 {
                done += Int(written)
                continue
            }
            let code = Int32(written)
            if code == -EPIPE || code == -ESTRPIPE || code == -EINTR {
                if code != -EINTR { recoveries += 1 }
                let recovered = snd_pcm_recover(handle, code, 1)
                if recovered >= 0 { continue }
                throw Failure("cannot recover", recovered)
            }
            throw Failure("write failed", code)
        }
    }

    /// The recoveries since the last call; counting starts again at 0.
    func takeRecoveries() -> Int {
        defer { recoveries = 0 }
        return recoveries
    }

    /// Frames the device has room for now (a negative code after an underrun: the next write
    /// recovers). A sink that plays nothing in real time (`null`, `file` over `null`) always has
    /// room for the whole buffer.
    func available() -> Int { Int(snd_pcm_avail_update(handle)) }

    /// Frames written but not yet played that `rewind` can take back (0 on error).
    func rewindable() -> Int { max(0, Int(snd_pcm_rewindable(handle))) }

    /// Takes back up to `frames` of the latest written frames, to be written again with a new
    /// sound in them; returns how many were taken back.
    func rewind(_ frames: Int) -> Int {
        guard frames > 0 else { return 0 }
        return max(0, Int(snd_pcm_rewind(handle, snd_pcm_uframes_t(frames))))
    }

    /// Lets what is queued play out, then closes.
    func drainAndClose() {
        snd_pcm_drain(handle)
        snd_pcm_close(handle)
    }

    /// Closes at once (the device is gone anyway).
    func close() { snd_pcm_close(handle) }
}
