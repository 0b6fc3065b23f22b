import Foundation
import Glibc

/// A child process started with posix_spawn and reaped with waitpid. (Foundation's Process can
/// hang in waitUntilExit on Linux when used from test threads.)
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private var status: Int32?

    /// Starts `path` with `arguments`; stdout and stderr are appended to `logPath`.
    public init(path: String, arguments: [String], environment: [String: String], logPath: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The test runner's threads block SIGTERM and friends, and a spawned child inherits that
        // mask: mosquitto would then ignore SIGTERM and every stop() wait its full 5 s for SIGKILL.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestFailure("cannot start \(path): \(String(cString: strerror(rc)))") }
        pid = child
    }

    public var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        let rc = waitpid(pid, &raw, WNOHANG)
        if rc == pid {
            status = raw
            return false
        }
        return rc == 0
    }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds; returns the exit status (128+signal when killed), or nil.
    public func wait(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(5_000) }
        guard let raw = status else { return nil }
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = wait(timeout: 5)
        }
    }
}
