import CALSASilence
import Logging
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// Answers and reports off the render: readiness checks, status changes, what the audio thread handed over.
extension AudioEngine {
    /// Answers the waiting readiness checks (taken by the loop's lock). The device is opened only
    /// when it is not open already, and closed again without a sample written; the mixer is read,
    /// never set. Nothing else: the sound's file is checked off this thread (ReadinessService).
    func answerChecks(_ checks: [AudioCheckRequest], device: String, pcm: AlsaPCM?) {
        guard !checks.isEmpty else { return }
        let probe = AudioDeviceProbe.probe(device: device, sampleRate: sampleRate, open: pcm)
        let report = ReadinessReport(deviceError: probe.openError, muted: probe.mixer?.mutedMessage)
        for check in checks { check.continuation.resume(returning: report) }
    }

    /// Answers checks that arrive while stopping: the thread is gone.
    func refuseChecks() {
        let checks = shared.withLock { state -> [AudioCheckRequest] in
            defer { state.checks = [] }
            return state.checks
        }
        for check in checks { check.continuation.resume(returning: ReadinessReport(deviceError: "the audio engine has stopped")) }
    }

    func report(_ status: AudioStatus) {
        let changed = shared.withLock { state -> AudioStatus? in
            var status = status
            status.underruns = state.status.underruns
            guard state.status != status else { return nil }
            state.status = status
            return status
        }
        guard let status = changed else { return }
        if status.state == .ok {
            logger.info("audio device open", metadata: ["device": "\(status.device)"])
        } else {
            logger.warning("audio device unavailable", metadata: ["device": "\(status.device)", "error": "\(status.error ?? "")"])
        }
        continuation.yield(status)
    }

    /// What the audio thread handed over, on the `audio-handoff` thread (where a lock, a log line
    /// or an allocation waits for nobody).
    func performHandedOver(_ item: AudioHandoffItem) {
        switch item {
        case .release: break
        case .alarmSound(let report): alarmContinuation.yield(report)
        case .outage(let outage): outageContinuation.yield(outage)
        case .underruns(let count): reportUnderruns(count)
        }
    }

    /// A new underrun count (`UnderrunCounter`: at most every 10 s), with the status as it is.
    private func reportUnderruns(_ count: Int) {
        let status = shared.withLock { state -> AudioStatus in
            state.status.underruns = count
            return state.status
        }
        logger.warning("audio underruns", metadata: ["device": "\(status.device)", "count": "\(count)"])
        continuation.yield(status)
    }
}
