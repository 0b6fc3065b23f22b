import CALSA
import NoiseClockCore

/// The readiness check's device part, run on the audio thread (the one owner of the device): open
/// the device without writing to it (or use the open one) and read its mixer. Nothing that reads a
/// sound file: that is `SoundLibrary.canMake`, called off this thread.
extension AudioEngine {
    /// What the device looks like now (the report's `deviceError` and `muted`).
    public func checkDevice() async -> ReadinessReport {
        await withCheckedContinuation { continuation in
            let accepted = enqueueCheck(AudioCheckRequest(continuation: continuation))
            if !accepted { continuation.resume(returning: ReadinessReport(deviceError: "the audio engine is stopping")) }
        }
    }
}

/// A readiness check waiting for the audio thread.
struct AudioCheckRequest: Sendable {
    var continuation: CheckedContinuation<ReadinessReport, Never>
}

extension AlsaPCM {
    /// The card this PCM plays on, if it is a sound card's (a `file` or `null` PCM is not).
    var card: Int32? {
        var info: OpaquePointer?
        guard snd_pcm_info_malloc(&info) >= 0, let info else { return nil }
        defer { snd_pcm_info_free(info) }
        guard snd_pcm_info(handle, info) >= 0 else { return nil }
        let card = snd_pcm_info_get_card(info)
        return card >= 0 ? card : nil
    }
}
