import Synchronization

/// `audio.sounds_dir` as the web app changes it (issue 30): each change goes to the sounds
/// watcher (`SoundsWatchService`), which reads the new folder and watches it instead of the old.
final class SoundsFolder: Sendable {
    /// Each new folder (nil: none), in order; finished by `finish`.
    let moves: AsyncStream<String?>
    private let continuation: AsyncStream<String?>.Continuation
    private let current: Mutex<String?>

    init(directory: String?) {
        current = Mutex(directory)
        (moves, continuation) = AsyncStream.makeStream(of: String?.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The folder now.
    var directory: String? { current.withLock { $0 } }

    /// The saved configuration's folder; the same one again changes nothing.
    func move(to directory: String?) {
        let changed = current.withLock { folder -> Bool in
            guard folder != directory else { return false }
            folder = directory
            return true
        }
        if changed { continuation.yield(directory) }
    }
}
