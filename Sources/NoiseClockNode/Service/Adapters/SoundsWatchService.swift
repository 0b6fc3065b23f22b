import Logging
import NoiseClockPlatform
import ServiceLifecycle

/// Runs the sound-files thread (`SoundFiles`) and, while `audio.sounds_dir` is watched, turns each
/// burst of changes into a rescan there, so `~/sounds` and the pickers follow without a restart.
/// When the web app moves the folder (`SoundsFolder`), the new one is read and watched instead.
/// This task only forwards: the folder is read on the sound-files thread, and the new library is
/// taken over when the machine says (`NodeEffect.useSounds`).
struct SoundsWatchService: Service {
    let files: SoundFiles
    let folder: SoundsFolder
    /// Where a new folder's loudness is remembered.
    let stateDirectory: String?
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
        var directory = folder.directory
        // One iterator for the node's life: ended by the graceful shutdown.
        var moves = folder.moves.cancelOnGracefulShutdown().makeAsyncIterator()
        while true {
            let watcher = watch(directory)
            let moved = await withDiscardingTaskGroup { group -> String?? in
                if let watcher {
                    group.addTask { [files, settleSeconds] in
                        for await _ in watcher.changes { files.folderChanged(settleSeconds: settleSeconds) }
                    }
                }
                let next = await moves.next()
                group.cancelAll()
                watcher?.stop()
                return next
            }
            guard case .some(let next) = moved else { return }
            directory = next
            files.folderMoved(to: next, stateDirectory: stateDirectory)
        }
    }

    /// A started watcher of `directory`, or nil (none set, or it cannot be watched: logged).
    private func watch(_ directory: String?) -> DirectoryWatcher? {
        guard let directory else { return nil }
        do {
            let watcher = try DirectoryWatcher(directory: directory)
            try watcher.start()
            return watcher
        } catch {
            logger.warning("sounds directory not watched; added files need a restart", metadata: ["directory": "\(directory)", "error": "\(error)"])
            return nil
        }
    }
}
