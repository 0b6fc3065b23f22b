import CALSASilence
import Logging
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Plays `AudioScene`s through ALSA on a dedicated thread (blocking writes must never run on
/// the cooperative pool). `apply(_:)` hands over a scene from any thread; the audio thread reads
/// the latest one every period and the mixer ramps towards it. A missing or busy device is
/// reported as `unavailable` and retried every `retryInterval`; playback resumes when it returns.
/// When nothing has been audible for `idleCloseSeconds` the device is closed and the thread
/// sleeps until a scene with sound arrives, so a quiet node costs no CPU and lets the speaker
/// (or a Bluetooth link) rest.
public final class AudioEngine: Sendable {
    /// The device played on now (`changeDevice` moves it).
    public var device: String { shared.withLock { $0.device } }
    public let sampleRate: Int
    /// Status changes (`~/audio`), in order. Finished by `stop()`.
    public let statuses: AsyncStream<AudioStatus>
    /// The failsafe's confirmations: a ringing alarm's first audible samples were written to the
    /// device (again after the device came back), or its sound could not be made. Finished by `stop()`.
    public let alarmSounds: AsyncStream<AlarmSoundReport>
    /// The titles a playing station's stream announces (ICY), from its player's thread.
    public let stationTitles: AsyncStream<StationTitle>
    /// A station playing as noise went down (10 s without audio) or came back, from the audio thread.
    public let stationOutages: AsyncStream<StationOutage>

    private struct Shared {
        var device: String
        var scene = AudioScene.silence
        var stopping = false
        var status: AudioStatus
        /// Readiness checks for the audio thread to answer.
        var checks: [AudioCheckRequest] = []
        /// The latest utterance (`speak`); the audio thread plays each generation once.
        var speech: SpeechClip?
        /// A rescanned library for the mixer to take (sounds made from now on come from it).
        var library: SoundLibrary?
        /// The latest library, which `apply` opens recordings from (kept: `library` is taken).
        var latestLibrary: SoundLibrary
        /// Recordings `apply` opened for the scenes' new voices, for the mixer to take.
        var prepared = PreparedSources()
        /// Something above changed since the audio thread last looked: it copies the scene (and
        /// compares it with silence) only then, not every period.
        var changed = true
        /// Test chimes (`playChime`) waiting for their first frames to reach the device.
        var chimeWaiters: [ChimeWaiter] = []
    }

    private let shared: Mutex<Shared>
    /// The voices of the scene last applied: `apply` opens recordings only for slots new since.
    /// Held while it opens them, so two callers' scenes are prepared one after the other.
    private let applied = Mutex(SceneVoices(.silence))
    private let continuation: AsyncStream<AudioStatus>.Continuation
    private let alarmContinuation: AsyncStream<AlarmSoundReport>.Continuation
    private let radio: RadioSettings
    private let titleContinuation: AsyncStream<StationTitle>.Continuation
    private let outageContinuation: AsyncStream<StationOutage>.Continuation
    private let library: SoundLibrary
    private let logger: Logger
    private let retryInterval: Double
    private let idleCloseSeconds: Double
    private let wakeup = WakeSignal()
    private let thread = DedicatedThread(name: "audio")
    /// The audio thread's way out that never waits: reports and retired sources (`AudioHandoff`).
    private let handoff = AudioHandoff()
    /// The time scenes are rendered at (their ramps and fades are instants on the node's clock).
    private let clock: @Sendable () -> Instant
    /// The output dither's seed (nil: the system's): tests pass one so their output repeats.
    private let ditherSeed: UInt64?

    /// The system's real-time clock, the default for `clock`.
    public static let realtimeClock: @Sendable () -> Instant = { WallClock.now() }

    public init(
        device: String, sampleRate: Int, library: SoundLibrary, logger: Logger, retryInterval: Double = 3,
        idleCloseSeconds: Double = 5, clock: @escaping @Sendable () -> Instant = AudioEngine.realtimeClock,
        ditherSeed: UInt64? = nil, userAgent: String = "NoiseClock", caFile: String? = nil, allowsLocalAddresses: Bool = false
    ) {
        self.ditherSeed = ditherSeed
        self.clock = clock
        self.sampleRate = sampleRate
        self.library = library
        self.logger = logger
        self.retryInterval = retryInterval
        self.idleCloseSeconds = idleCloseSeconds
        shared = Mutex(Shared(device: device, status: AudioStatus(device: device, state: .unavailable, error: "not started"), latestLibrary: library))
        (statuses, continuation) = AsyncStream.makeStream(of: AudioStatus.self, bufferingPolicy: .bufferingNewest(16))
        (alarmSounds, alarmContinuation) = AsyncStream.makeStream(of: AlarmSoundReport.self, bufferingPolicy: .bufferingNewest(16))
        let (titles, titleContinuation) = AsyncStream.makeStream(of: StationTitle.self, bufferingPolicy: .bufferingNewest(16))
        stationTitles = titles
        self.titleContinuation = titleContinuation
        let (outages, outageContinuation) = AsyncStream.makeStream(of: StationOutage.self, bufferingPolicy: .bufferingNewest(16))
        stationOutages = outages
        self.outageContinuation = outageContinuation
        let handoff = handoff
        radio = RadioSettings(userAgent: userAgent, caFile: caFile, allowsLocalAddresses: allowsLocalAddresses, onTitle: { sound, title in
            titleContinuation.yield(StationTitle(sound: sound, title: title))
        }, onOutage: { outageContinuation.yield($0) }, onRenderedOutage: { handoff.post(.outage($0)) })
        noiseclock_alsa_silence_errors()
    }

    /// The latest status (also delivered through `statuses`).
    public var status: AudioStatus { shared.withLock { $0.status } }

    /// Starts the audio thread. Calling it twice does nothing.
    public func start() {
        guard !shared.withLock({ $0.stopping }) else { return }
        do {
            try handoff.start { [self] item in performHandedOver(item) }
            try thread.start { [self] in runAudioThread() }
        } catch {
            report(AudioStatus(device: self.device, state: .unavailable, error: "cannot start audio thread (\(error))"))
        }
    }

    /// What should be audible from now on. Thread-safe. The recordings the scene's new voices
    /// play are opened here, before the scene is handed over, so the audio thread never opens a
    /// file nor waits for one: a new recording costs its file's opening and up to
    /// `StreamSource.firstBlockWait` for its first block here; anything else is cheap.
    public func apply(_ scene: AudioScene) {
        applied.withLock { previous in
            let voices = SceneVoices(scene)
            let library = shared.withLock { $0.latestLibrary }
            let sources = voices.prepare(after: previous, library: library, radio: radio)
            previous = voices
            let dropped = shared.withLock { state in
                state.scene = scene
                let gone = state.prepared.add(sources)
                state.changed = true
                return gone + state.prepared.trim(to: voices.recordingCounts(library))
            }
            // Not here (the loop's thread): a station's player is joined as it is let go of.
            handoff.release(dropped)
        }
        wakeup.signal()
    }

    /// Speaks `samples` (mono, at `sampleRate`) over the scene, ducking it; replaces any
    /// utterance still speaking. `volume` 0–100 as the scene's volumes.
    public func speak(_ samples: [Int16], volume: Int) {
        shared.withLock { state in
            let generation = (state.speech?.generation ?? 0) + 1
            state.speech = SpeechClip(samples: samples, gain: AudioScene.gain(volume: volume), generation: generation)
            state.changed = true
        }
        wakeup.signal()
    }

    /// Plays on `device` from now on (the web app's `audio.device`): the audio thread closes the
    /// old PCM and opens the new one at once, whatever plays goes on there (an alarm included),
    /// and `statuses` says whether it opened. Thread-safe; the same name again does nothing.
    public func changeDevice(_ device: String) {
        let changed = shared.withLock { state -> Bool in
            guard state.device != device else { return false }
            state.device = device
            state.changed = true
            return true
        }
        if changed { wakeup.signal() }
    }

    /// Plays `samples` (mono, at `sampleRate`) over whatever plays, as an utterance is, and calls
    /// `done` on the audio thread once frames with it in were written to the device (with the
    /// card the device is on, for its mixer), or with why not (the device did not open).
    public func playChime(_ samples: [Int16], volume: Int, done: @escaping @Sendable (Result<Int32?, ChimeFailure>) -> Void) {
        let accepted = shared.withLock { state -> Bool in
            guard !state.stopping else { return false }
            let generation = (state.speech?.generation ?? 0) + 1
            state.speech = SpeechClip(samples: samples, gain: AudioScene.gain(volume: volume), generation: generation)
            state.chimeWaiters.append(ChimeWaiter(done: done))
            state.changed = true
            return true
        }
        guard accepted else { return done(.failure(ChimeFailure(description: "the audio engine is stopping"))) }
        wakeup.signal()
    }

    /// The sounds directory changed: new voices come from `library`; playing ones go on.
    public func replaceLibrary(_ library: SoundLibrary) {
        shared.withLock { state in
            state.library = library
            state.latestLibrary = library
            state.changed = true
        }
        wakeup.signal()
    }

    /// Fades everything out, closes the device and joins the thread (at most ~3 s).
    public func stop() {
        shared.withLock { state in
            state.stopping = true
            state.changed = true
        }
        wakeup.signal()
        thread.join()
        handoff.stop()
        handoff.release(shared.withLock { state in
            defer { state.prepared = PreparedSources() }
            return state.prepared.trim(to: [:])
        })
        refuseChecks()
        refuseChimes(shared.withLock { state in
            defer { state.chimeWaiters = [] }
            return state.chimeWaiters
        })
        continuation.finish()
        alarmContinuation.finish()
        titleContinuation.finish()
        outageContinuation.finish()
    }

    /// Queues a readiness check for the audio thread; false when the engine is stopping.
    func enqueueCheck(_ request: AudioCheckRequest) -> Bool {
        let accepted = shared.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.checks.append(request)
            state.changed = true
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// Answers the waiting readiness checks (taken by the loop's lock). The device is opened only
    /// when it is not open already, and closed again without a sample written; the mixer is read,
    /// never set. Nothing else: the sound's file is checked off this thread (ReadinessService).
    private func answerChecks(_ checks: [AudioCheckRequest], device: String, pcm: AlsaPCM?) {
        guard !checks.isEmpty else { return }
        let probe = AudioDeviceProbe.probe(device: device, sampleRate: sampleRate, open: pcm)
        let report = ReadinessReport(deviceError: probe.openError, muted: probe.mixer?.mutedMessage)
        for check in checks { check.continuation.resume(returning: report) }
    }

    /// Answers checks that arrive while stopping: the thread is gone.
    private func refuseChecks() {
        let checks = shared.withLock { state -> [AudioCheckRequest] in
            defer { state.checks = [] }
            return state.checks
        }
        for check in checks { check.continuation.resume(returning: ReadinessReport(deviceError: "the audio engine has stopped")) }
    }

    private func report(_ status: AudioStatus) {
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
    private func performHandedOver(_ item: AudioHandoffItem) {
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

    // MARK: - The audio thread

    fileprivate func runAudioThread() {
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

    private func refuseChimes(_ waiters: [ChimeWaiter], _ why: String = "the audio engine has stopped") {
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

/// A test chime waiting for the audio thread (`AudioEngine.playChime`).
struct ChimeWaiter: Sendable {
    var done: @Sendable (Result<Int32?, ChimeFailure>) -> Void
}

/// Why a test chime was not played.
public struct ChimeFailure: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}
