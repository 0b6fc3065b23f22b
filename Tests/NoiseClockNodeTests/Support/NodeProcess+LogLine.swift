import Foundation
import Glibc

extension NodeProcess {
    /// The first line of the node's log that `matches`, waiting for it: woken by inotify each
    /// time the node writes to its log, on a thread of its own (the wait blocks in `poll`, not
    /// on the tests' shared executor).
    func logLine(timeout: Double = 10, _ matches: @escaping @Sendable (Substring) -> Bool) async throws -> Substring {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Substring, any Error>) in
            Thread { continuation.resume(with: Result { try self.blockingLogLine(timeout: timeout, matches) }) }.start()
        }
    }

    private func blockingLogLine(timeout: Double, _ matches: (Substring) -> Bool) throws -> Substring {
        let inotify = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard inotify >= 0 else { throw TestFailure("inotify: \(String(cString: strerror(errno)))") }
        defer { close(inotify) }
        // Watched before the first look, so a line written in between still wakes the wait.
        guard inotify_add_watch(inotify, logFile.path, UInt32(IN_MODIFY)) >= 0 else {
            throw TestFailure("cannot watch \(logFile.path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            if let line = log.split(separator: "\n").first(where: matches) { return line }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestFailure("no such line in the node's log within \(timeout) s:\n\(log.suffix(2000))") }
            var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(left * 1000) + 1)
            _ = read(inotify, &events, events.count)  // drained: the next write wakes the next poll
        }
    }
}
