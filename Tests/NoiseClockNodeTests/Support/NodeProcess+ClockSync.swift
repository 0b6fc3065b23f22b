import Foundation
import Glibc

/// The kernel clock's synchronisation as the test node sees it: the clock file's second word
/// (`synced` / `unsynced`) stands in for `adjtimex`, whose answer on a test machine is whatever
/// the host's is.
extension NodeProcess {
    /// Writes the clock file with the current offset and `word`, without waiting (for a node not
    /// yet started).
    func writeClockSync(_ word: String) throws {
        let temporary = clockFile.deletingLastPathComponent().appendingPathComponent(".offset-ms.tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data("\(clockOffsetMilliseconds) \(word)\n".utf8)),
              rename(temporary.path, clockFile.path) == 0 else {
            throw TestFailure("cannot write \(clockFile.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `word` and returns once the running node has taken it (it logs a clock change).
    func setClockSync(_ word: String, timeout: Double = 20) async throws {
        let before = clockChangesLogged
        try writeClockSync(word)
        let deadline = Date().addingTimeInterval(timeout)
        while clockChangesLogged <= before {
            guard Date() < deadline, isRunning else { throw TestFailure("the node did not take the clock file within \(timeout) s") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
