import Logging
import NoiseClockPlatform
import ServiceLifecycle

/// Runs the sound-files thread (`SoundFiles`) and, when `audio.sounds_dir` is watched, turns each
/// burst of changes into a rescan there, so `~/sounds` and the pickers follow without a restart.
/// This task only forwards: the folder is read on the sound-files thread, and the new library is
/// taken over when the machine says (`NodeEffect.useSounds`).
struct SoundsWatchService: Service {
    let files: SoundFiles
    /// nil: no folder to watch (only the readiness check uses the thread).
    let watcher: DirectoryWatcher?
    let logger: Logger
    /// How long a burst of changes (a copy, an editor's save) is left to settle.
    var settleSeconds = 0.25

    func run() async throws {
        do {
            try files.start()
        } catch {
            // Stopped at once: checks skip the sound (`canMake` says nil), new files need a restart.
            logger.error("sound files thread not started", metadata: ["error": "\(error)"])
            files.stop()
            try? await gracefulShutdown()
            return
        }
        defer { files.stop() }
        guard let watcher else {
            try? await gracefulShutdown()
            return
        }
        do {
            try watcher.start()
        } catch {
            logger.warning("sounds directory not watched", metadata: ["error": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        for await _ in watcher.changes.cancelOnGracefulShutdown() {
            files.folderChanged(settleSeconds: settleSeconds)
        }
        watcher.stop()
    }
}
