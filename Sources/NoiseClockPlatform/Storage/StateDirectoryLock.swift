import Glibc

/// `<state_dir>/node.lock`, held with `flock` by the running node for its whole life, so that
/// `noiseclock restore` knows whether it may write the state files itself (no node) or must go
/// through the node (its web API). The kernel drops the lock when the process ends, even by
/// `kill -9`: a stale lock cannot outlive its holder. The holder may write a record into it (the
/// node: the web address it listens on), which `holderRecord` reads only while the lock is held.
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
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
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
        // The last holder's record is not this one's.
        _ = ftruncate(fd, 0)
        return StateDirectoryLock(fd: fd)
    }

    /// Replaces the record the holder leaves in the file for others to read.
    public func record(_ bytes: [UInt8]) {
        _ = ftruncate(fd, 0)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The record of the process holding the lock, nil when none holds it (a record left by a
    /// process that has ended is never read). Probes with a shared lock, given back at once.
    public static func holderRecord(directory: String) -> [UInt8]? {
        let fd = open(directory + "/" + fileName, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return bytes
    }

    deinit { close(fd) }
}
