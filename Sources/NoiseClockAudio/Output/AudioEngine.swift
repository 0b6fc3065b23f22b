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

    let shared: Mutex<Shared>
    /// The voices of the scene last applied: `apply` opens recordings only for slots new since.
    /// Held while it opens them, so two callers' scenes are prepared one after the other.
    private let applied = Mutex(SceneVoices(.silence))
    let continuation: AsyncStream<AudioStatus>.Continuation
    let alarmContinuation: AsyncStream<AlarmSoundReport>.Continuation
    let radio: RadioSettings
    private let titleContinuation: AsyncStream<StationTitle>.Continuation
    let outageContinuation: AsyncStream<StationOutage>.Continuation
    let library: SoundLibrary
    let logger: Logger
    let retryInterval: Double
    let idleCloseSeconds: Double
    let wakeup = WakeSignal()
    private let thread = DedicatedThread(name: "audio")
    /// The audio thread's way out that never waits: reports and retired sources (`AudioHandoff`).
    let handoff = AudioHandoff()
    /// The time scenes are rendered at (their ramps and fades are instants on the node's clock).
    let clock: @Sendable () -> Instant
    /// The output dither's seed (nil: the system's): tests pass one so their output repeats.
    let ditherSeed: UInt64?

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
}
