import Glibc
import NoiseClockPlatform
import Synchronization

/// A restart the node asks of itself (`safe_mode/exit`, `POST /api/restart`): the request stops the node cleanly (as
/// SIGTERM does: `offline` published, every service ended), and once `NodeApplication.run` has
/// returned the process starts again. Under systemd (`NOTIFY_SOCKET` set) it exits with
/// `exitStatus`, which the unit's `Restart=on-failure` restarts; elsewhere (`make run`, a test)
/// it re-executes itself in place (`/proc/self/exe`, the same arguments and environment, the
/// same process id), so whatever waits on the process keeps waiting on the new node.
public final class NodeRestart: Sendable {
    /// EX_TEMPFAIL: not 0 (systemd would not restart) and not 2 (`RestartPreventExitStatus`).
    public static let exitStatus: Int32 = 75

    private let requested = Atomic<Bool>(false)

    public init() {}

    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Stops the node cleanly, to start again.
    func request() {
        requested.store(true, ordering: .releasing)
        kill(getpid(), SIGTERM)
    }

    /// Whether the supervisor (systemd) restarts the node when it exits with `exitStatus`.
    public static func supervised(environment: [String: String]) -> Bool { environment["NOTIFY_SOCKET"] != nil }

    /// Replaces the process with a new node; returns only when that failed (with why).
    public static func reexecute() -> String {
        // Nothing of this run may reach the next: open files (the state directory's lock, sockets)
        // close at the exec, and the signals the service group took are the default again.
        for entry in FileBytes.directoryEntries("/proc/self/fd") ?? [] {
            guard let fd = Int32(entry), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { Glibc.signal(signal, SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        fflush(nil)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        return String(cString: strerror(errno))
    }
}
