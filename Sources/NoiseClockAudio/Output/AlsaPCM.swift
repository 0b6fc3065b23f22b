import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// One open ALSA playback PCM: S16_LE, stereo, interleaved, blocking writes.
/// Used only by the audio thread.
final class AlsaPCM {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ what: String, _ code: Int32) { description = "\(what): \(String(cString: snd_strerror(code)))" }
    }

    let handle: OpaquePointer
    let bufferFrames: Int
    let periodFrames: Int

    /// `latencyMicroseconds` is the buffer ALSA keeps filled: large enough to ride out a busy
    /// machine, small enough that a volume change is heard quickly.
    init(device: String, sampleRate: Int, latencyMicroseconds: UInt32 = 100_000) throws(Failure) {
        var pcm: OpaquePointer?
        let opened = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard opened >= 0, let pcm else { throw Failure("cannot open \(device)", opened) }
        let set = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 2, UInt32(sampleRate), 1, latencyMicroseconds)
        guard set >= 0 else {
            snd_pcm_close(pcm)
            throw Failure("cannot configure \(device) for S16_LE stereo at \(sampleRate) Hz", set)
        }
        var buffer: snd_pcm_uframes_t = 0, period: snd_pcm_uframes_t = 0
        _ = snd_pcm_get_params(pcm, &buffer, &period)
        handle = pcm
        bufferFrames = buffer > 0 ? Int(buffer) : sampleRate / 10
        periodFrames = period > 0 ? min(Int(period), 4096) : 1024
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
                let recovered = snd_pcm_recover(handle, code, 1)
                if recovered >= 0 { continue }
                throw Failure("cannot recover", recovered)
            }
            throw Failure("write failed", code)
        }
    }

    /// Lets what is queued play out, then closes.
    func drainAndClose() {
        snd_pcm_drain(handle)
        snd_pcm_close(handle)
    }

    /// Closes at once (the device is gone anyway).
    func close() { snd_pcm_close(handle) }
}
