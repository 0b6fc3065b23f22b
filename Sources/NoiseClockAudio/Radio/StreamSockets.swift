import Glibc
import Synchronization

/// The sockets a station's connections hold open, so that the stop, from another thread, cuts
/// them at once: libcurl notices a stop (its progress callback) only about once a second while
/// nothing arrives, and the station's thread must be gone within a second of the stop. Bound to a
/// player's thread (`current`); `StreamConnection` records each socket it opens and forgets it
/// when libcurl closes it, so a number the system has given to another file is never touched.
final class StreamSockets: Sendable {
    @TaskLocal static var current: StreamSockets?

    private struct State {
        var open: Set<Int32> = []
        var cut = false
    }

    private let state = Mutex(State())

    /// A socket was opened: false (and it is not kept) once the stream was cut.
    func opened(_ socket: Int32) -> Bool {
        state.withLock { state in
            guard !state.cut else { return false }
            state.open.insert(socket)
            return true
        }
    }

    /// Closes `socket` (libcurl's close callback), under the lock `cut` takes.
    func close(_ socket: Int32) -> Int32 {
        state.withLock { state in
            state.open.remove(socket)
            return Glibc.close(socket)
        }
    }

    /// Shuts every open socket down (their reads and waits end at once) and refuses new ones.
    func cut() {
        state.withLock { state in
            state.cut = true
            for socket in state.open { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }
}
