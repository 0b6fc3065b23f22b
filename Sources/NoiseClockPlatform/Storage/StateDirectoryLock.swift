import Glibc

/// `<state_dir>/node.lock`, held with `flock` by the running node for its whole life, so that
/// `noiseclock restore` knows whether it may write the state files itself (no node) or must go
/// through the node (its web API). The kernel drops the lock when the process ends, even by
/// `kill -9`: a stale lock cannot outlive its holder.
public final class StateDirectoryLock: Sendable {
    public static let fileName = "node.lock"
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    /// The lock, or nil when another process holds it; waits up to `seconds` for it (a
    /// `noiseclock restore` holds it for the milliseconds its writes take).
    public static func acquire(directory: String, waitingUpTo seconds: Double = 0) throws(PlatformError) -> StateDirectoryLock? {
        let path = directory + "/" + fileName
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PlatformError("cannot open \(path): \(String(cString: strerror(errno)))") }
        // Made by root (`sudo noiseclock restore`): the node's user must still open it.
        var owner = stat()
        if geteuid() == 0, stat(directory, &owner) == 0 { _ = fchown(fd, owner.st_uid, owner.st_gid) }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let message = String(cString: strerror(errno))
                close(fd)
                throw PlatformError("cannot lock \(path): \(message)")
            }
            guard waited < seconds else {
                close(fd)
                return nil
            }
            usleep(50_000)
            waited += 0.05
        }
        return StateDirectoryLock(fd: fd)
    }

    deinit { close(fd) }
}
