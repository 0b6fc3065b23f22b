import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// Watches `audio.sounds_dir`: after a burst of changes settles (a quarter second) it reads the
/// directory again, hands the new library to the audio engine (and the readiness check) and the
/// new catalog to the loop, so `~/sounds` and the pickers follow without a restart.
struct SoundsWatchService: Service {
    let watcher: DirectoryWatcher
    let library: SoundLibrary
    let engine: AudioEngine?
    let inUse: CurrentSoundLibrary
    let inbox: NodeInbox
    let logger: Logger
    /// How long a burst of changes (a copy, an editor's save) is left to settle.
    var settleSeconds = 0.25

    func run() async throws {
        do {
            try watcher.start()
        } catch {
            logger.warning("sounds directory not watched", metadata: ["error": "\(error)"])
            return
        }
        var current = library
        for await _ in watcher.changes.cancelOnGracefulShutdown() {
            try? await Task.sleep(for: .seconds(settleSeconds))
            let next = current.rescanned(logger: logger)
            current = next
            engine?.replaceLibrary(next)
            inUse.value = next
            inbox.send(.soundCatalog(next.catalog))
        }
        watcher.stop()
    }
}
