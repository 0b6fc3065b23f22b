import CALSASilence
import Logging
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The audio thread: the mixer, the device, the pacing; nothing here waits on a lock or allocates per period.
extension AudioEngine {
    func runAudioThread() {
        AudioThreadMark.markCurrentThread()
        Self.requestRealtimePriority()
        let mixer = Mixer(library: library, maxFrames: 1024)
        let handoff = handoff
        mixer.onStationOutage = radio.onRenderedOutage
        mixer.onStationFarewell = radio.onOutage
        // Full (never seen: 256 slots, drained at once): let go of here rather than wait.
        mixer.retire = { source in _ = handoff.post(.release(source)) }
        defer {
            mixer.retireAll()
            handoff.wake()
        }
        let maxFrames = 8192
        let writer = OutputWriter(sampleRate: sampleRate, maxFrames: maxFrames, ditherSeed: ditherSeed)
        var pcm: AlsaPCM?
        var pacer = Pacer(sampleRate: sampleRate)
        var underruns = UnderrunCounter()
        var stopDeadline: Double?
        var silentSince: Double?
        // The ring whose sound (or whose failure to make it) was last reported; forgotten when the
        // device is lost, so a device that comes back is confirmed again.
        var reportedAlarm: AlarmSoundKey?
        // The ring whose station's failure was last reported (once per ring).
        var reportedStreamFailure: AlarmSoundKey?
        var speech = SpeechPlayer(sampleRate: sampleRate)
        var scene = AudioScene.silence, sceneIsSilence = true, stopping = false
        var fineUntil = 0.0
        // The device as the thread plays on it; `reopen`: a new one, opened at once (even with
        // nothing to play) so `statuses` says whether it works.
        var device = self.device, reopen = false
        var chimeWaiters: [ChimeWaiter] = []
        func lose(_ output: AlsaPCM, _ error: AlsaPCM.Failure) {
            output.close()
            pcm = nil
            reportedAlarm = nil
            report(AudioStatus(device: device, state: .unavailable, error: error.description))
        }
        // Only once the samples are accepted by the device is the alarm known to sound.
        func confirmAlarm() {
            guard let playback = mixer.alarmPlayback, playback.key != reportedAlarm, playback.audible || playback.unplayable else { return }
            reportedAlarm = playback.key
            let outcome: AlarmSoundReport.Outcome = playback.unplayable ? .unplayable(error: Self.unplayable) : .audible(fallback: playback.fallback)
            handoff.post(.alarmSound(AlarmSoundReport(key: playback.key, outcome: outcome)))
        }
        // A ringing station that cannot be heard: the core turns the ring to the fallback tone.
        func reportStreamFailure() {
            guard let playback = mixer.alarmPlayback, let cause = playback.streamFailure, playback.key != reportedStreamFailure else { return }
            reportedStreamFailure = playback.key
            handoff.post(.alarmSound(AlarmSoundReport(key: playback.key, outcome: .streamFailed(cause: cause))))
        }
        while true {
            // A lock tried once a period, never waited for (an `apply` holding it: the news is taken
            // next period), and a copy of the scene only when something changed. The prepared
            // sources are swapped out, then into the mixer, so it holds the only reference (no copy).
            var arrived = PreparedSources()
            let news = shared.withLockIfAvailable { state -> Shared? in
                guard state.changed else { return nil }
                swap(&arrived, &state.prepared)
                defer {
                    state.changed = false
                    state.library = nil
                    state.checks = []
                    state.prepared = PreparedSources()
                    state.chimeWaiters = []
                }
                return state
            } ?? nil
            if let news {
                if news.device != device {
                    // What the old device has queued is dropped; the scene goes on on the new one.
                    device = news.device
                    pcm?.close()
                    pcm = nil
                    reportedAlarm = nil
                    silentSince = nil
                    reopen = true
                }
                chimeWaiters += news.chimeWaiters
                let previous = scene
                scene = news.scene
                sceneIsSilence = scene == .silence
                stopping = news.stopping
                if let library = news.library { mixer.library = library }
                mixer.offer(&arrived, for: scene)
                answerChecks(news.checks, device: device, pcm: pcm)
                let newUtterance = speech.offer(news.speech)
                // A new ring or preview, or an utterance, is heard now, not behind what is queued.
                let newSound = !stopping && (scene.alarm.map { $0.key != previous.alarm?.key } ?? false
                    || scene.preview.map { $0 != previous.preview } ?? false)
                if let output = pcm, newUtterance || newSound {
                    do {
                        _ = try writer.rewrite(output, speech: &speech, newUtterance: newUtterance,
                                               scene: newSound ? (mixer, scene, clock()) : nil)
                        underruns.add(output.takeRecoveries())
                        fineUntil = Clocks.monotonicSeconds() + Self.fineSeconds
                        confirmAlarm()
                        reportStreamFailure()
                    } catch {
                        lose(output, error)
                        continue
                    }
                }
            }
            if stopping {
                let deadline = stopDeadline ?? Clocks.monotonicSeconds() + 3
                stopDeadline = deadline
                if pcm == nil || mixer.isSilent || Clocks.monotonicSeconds() > deadline { break }
            }
            if let count = underruns.due(now: Clocks.monotonicSeconds()) { handoff.post(.underruns(count)) }
            if pcm == nil, sceneIsSilence, !speech.isActive, !stopping, !reopen, status.state == .ok {
                // Closed while idle: nothing to play, so sleep until a scene brings sound (or a
                // count of underruns not yet published is due).
                handoff.wake()
                wakeup.wait(seconds: underruns.pendingWait(now: Clocks.monotonicSeconds()) ?? 3600)
                continue
            }
            guard let output = pcm else {
                reopen = false
                do {
                    let opened = try AlsaPCM(device: device, sampleRate: sampleRate)
                    pcm = opened
                    pacer.reset(bufferFrames: opened.bufferFrames)
                    writer.reset()
                    fineUntil = Clocks.monotonicSeconds() + Self.fineSeconds
                    report(AudioStatus(device: device, state: .ok))
                } catch {
                    reportedAlarm = nil
                    report(AudioStatus(device: device, state: .unavailable, error: error.description))
                    refuseChimes(chimeWaiters, error.description)
                    chimeWaiters = []
                    handoff.wake()
                    waitBeforeRetry()
                }
                continue
            }
            let period = min(output.periodFrames, maxFrames)
            // In fine steps while a new sound starts (or speaks), whole periods otherwise: the
            // same fill, but what was just written over the queue (`rewrite`) reaches a sink that
            // plays only as it is written to (the `file` PCM the tests capture) within a step.
            let fine = speech.isActive || (fineUntil > 0 && Clocks.monotonicSeconds() < fineUntil)
            let frames = fine ? min(period, sampleRate / 50) : period
            // Wait for room on the device (or for real time on a sink that never blocks) on the
            // wake signal, not in a blocking write: news cuts the wait short.
            let wait = pacer.secondsToWait(chunk: frames, period: period, available: output.available())
            if wait > 0 {
                // Before each sleep (what was handed over goes out now, not a period later).
                handoff.wake()
                wakeup.wait(seconds: wait)
                continue
            }
            do {
                try writer.writePeriod(mixer, stopping ? .silence : scene, at: clock(), frames: frames, speech: &speech, to: output)
            } catch {
                lose(output, error)
                continue
            }
            pacer.wrote(frames: frames, available: output.available())
            underruns.add(output.takeRecoveries() + pacer.takeLateWrites())
            if !chimeWaiters.isEmpty {
                let card = output.card
                for waiter in chimeWaiters { waiter.done(.success(card)) }
                chimeWaiters = []
            }
            confirmAlarm()
            reportStreamFailure()
            // After the device write (a system call already), never inside the render.
            handoff.wake()
            if sceneIsSilence && mixer.isSilent && !speech.isActive && !stopping {
                let now = Clocks.monotonicSeconds()
                silentSince = silentSince ?? now
                if now - silentSince! >= idleCloseSeconds {
                    output.drainAndClose()
                    pcm = nil
                    silentSince = nil
                }
            } else {
                silentSince = nil
            }
        }
        pcm?.drainAndClose()
        refuseChecks()
        refuseChimes(chimeWaiters)
    }

    func refuseChimes(_ waiters: [ChimeWaiter], _ why: String = "the audio engine has stopped") {
        for waiter in waiters { waiter.done(.failure(ChimeFailure(description: why))) }
    }

    static let unplayable = "neither the alarm's sound nor the built-in \(Mixer.fallbackSound) can be played"

    /// How long the audio thread writes in fine steps after the device opens or a new sound is
    /// written over the queue.
    static let fineSeconds = 0.5

    /// Sleeps `retryInterval` without polling; `stop()` or a new scene wakes it early, so a
    /// user pressing play retries at once.
    private func waitBeforeRetry() {
        wakeup.wait(seconds: retryInterval)
    }

    /// SCHED_FIFO when the process may have it (a systemd unit can grant it); otherwise the
    /// thread runs at normal priority, which is fine for a 300 ms buffer.
    private static func requestRealtimePriority() {
        var parameters = sched_param()
        parameters.sched_priority = 10
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }
}
