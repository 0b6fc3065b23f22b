import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockThreads
import Synchronization

/// The node's sound files as an adapter: the library in use, the libraries a rescan of
/// `sounds_dir` built that wait for the machine, and the one thread (`sound-files`) that reads
/// sound files for the adapters — rescans, and the readiness check's look at the next alarm's
/// file — so neither blocks the cooperative pool, the loop or the audio thread.
///
/// A rescan reports `NodeInput.soundsChanged` with the new library's catalog; the library itself
/// waits here until the machine's `NodeEffect.useSounds` (`use`), which hands it to the audio
/// engine: nothing changes behind the machine's back.
final class SoundFiles: Sendable {
    private struct Libraries {
        var inUse: SoundLibrary?
        /// The newest library built (in use or waiting): what the next rescan starts from.
        var newest: SoundLibrary?
        /// Built by rescans, by generation, until the machine takes one over.
        var waiting: [UInt64: SoundLibrary] = [:]
        var generation: UInt64 = 0
        /// A rescan is queued and has not begun reading: more changes need no second one.
        var rescanQueued = false
    }

    private let libraries: Mutex<Libraries>
    private let thread: WorkThread
    private let inbox: NodeInbox
    private let logger: Logger

    /// `threadName`: another only in tests, to tell their thread from others'.
    init(library: SoundLibrary?, inbox: NodeInbox, logger: Logger, threadName: String = "sound-files") {
        libraries = Mutex(Libraries(inUse: library, newest: library))
        thread = WorkThread(name: threadName)
        self.inbox = inbox
        self.logger = logger
    }

    func start() throws(ThreadStartError) { try thread.start() }

    /// Lets a rescan or check under way finish and ends the thread.
    func stop() { thread.stop() }

    /// The library the machine last said to use.
    var inUse: SoundLibrary? { libraries.withLock { $0.inUse } }

    /// `sounds_dir` changed: once the burst has settled (`settleSeconds`, on the thread), read it
    /// again and, if any recording changed, report the new library.
    func folderChanged(settleSeconds: Double) {
        let queue = libraries.withLock { state -> Bool in
            defer { state.rescanQueued = true }
            return !state.rescanQueued
        }
        guard queue else { return }
        thread.submit { [self] in
            Self.sleep(seconds: settleSeconds)
            let base = libraries.withLock { state -> SoundLibrary? in
                state.rescanQueued = false
                return state.newest
            }
            guard let base else { return }
            let next = base.rescanned(logger: logger)
            // Same recordings (paths, headers): the library in use plays the folder as it is.
            guard next.customSounds != base.customSounds else { return }
            let generation = libraries.withLock { state -> UInt64 in
                state.generation += 1
                state.newest = next
                state.waiting[state.generation] = next
                return state.generation
            }
            inbox.send(.soundsChanged(SoundLibrarySummary(generation: generation, catalog: next.catalog)))
        }
    }

    /// `audio.sounds_dir` saved in the web app: read `directory` (nil: none) on the thread in place
    /// of the old folder and, if that changes the recordings, report the new library.
    func folderMoved(to directory: String?, stateDirectory: String?) {
        thread.submit { [self] in
            let base = libraries.withLock { $0.newest }
            guard let base, base.soundsDirectory != directory else { return }
            let next = base.moved(to: directory, stateDirectory: stateDirectory, logger: logger)
            let changed = next.customSounds != base.customSounds
            let generation = libraries.withLock { state -> UInt64 in
                state.newest = next
                guard changed else { return 0 }
                state.generation += 1
                state.waiting[state.generation] = next
                return state.generation
            }
            logger.info("sounds directory moved", metadata: ["directory": "\(directory ?? "none")", "recordings": "\(next.customSounds.count)"])
            if changed { inbox.send(.soundsChanged(SoundLibrarySummary(generation: generation, catalog: next.catalog))) }
        }
    }

    /// The machine's `useSounds`: the waiting library of `generation` becomes the one in use
    /// (older waiting ones are dropped); nil if there is none (already taken over).
    func use(_ generation: UInt64) -> SoundLibrary? {
        libraries.withLock { state in
            guard let library = state.waiting[generation] else { return nil }
            state.waiting = state.waiting.filter { $0.key > generation }
            state.inUse = library
            return library
        }
    }

    /// Whether the library in use can make `sound` now (a custom file's header opened and read:
    /// disk I/O, so on this thread); nil without a library or while stopping.
    func canMake(_ sound: String) async -> Bool? {
        guard let library = inUse else { return nil }
        return await thread.run { library.canMake(sound) }
    }

    private static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        WakeSignal().wait(seconds: seconds)
    }
}
