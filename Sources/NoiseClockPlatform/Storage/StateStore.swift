import CLinux
import Glibc
import NoiseClockCore

/// The node's state files in `state_dir`: JSON documents written atomically so that an
/// acknowledged change survives `kill -9` and power loss (the spare file `NAME.tmp` written and
/// synced, swapped with the file, the directory synced; see `write`). A file that cannot be parsed is moved aside, never overwritten, and reported.
public struct StateStore: Sendable {
    public enum Loaded: Sendable, Equatable {
        case missing
        case document(JSONValue)
        /// The file was unreadable or not JSON; it now lives at `movedTo` for a human to inspect.
        case corrupt(reason: String, movedTo: String)
    }

    public let directory: String

    /// Files that may hold a secret (`settings.json`: the broker's password set in the web app):
    /// written 0600, the others 0640.
    public static let privateFiles: Set<String> = ["settings.json"]

    public init(directory: String) {
        self.directory = directory
    }

    public func path(of name: String) -> String { directory + "/" + name }

    /// Creates the directory (and parents) if needed.
    public func prepare() throws(PlatformError) {
        var current = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o750) != 0 && errno != EEXIST {
                throw PlatformError("cannot create \(current): \(String(cString: strerror(errno)))")
            }
        }
    }

    public func load(_ name: String, now: Instant) -> Loaded {
        let path = path(of: name)
        let bytes: [UInt8]
        switch FileBytes.read(path) {
        case .success(let data): bytes = data
        case .failure(let error) where error.code == ENOENT: return .missing
        case .failure(let error): return moveAside(path, reason: error.description, now: now)
        }
        do {
            return .document(try JSONParser(maxDepth: 64).parse(bytes))
        } catch {
            return moveAside(path, reason: "not valid JSON (\(error.description))", now: now)
        }
    }

    /// Moves a file that parsed but cannot be used in full aside, exactly as `load` does with an
    /// unparsable one, so the node's next write does not destroy it.
    public func setAside(_ name: String, reason: String, now: Instant) -> Loaded {
        moveAside(path(of: name), reason: reason, now: now)
    }

    private func moveAside(_ path: String, reason: String, now: Instant) -> Loaded {
        var target = "\(path).corrupt-\(now.seconds)"
        var attempt = 1
        while access(target, F_OK) == 0 {
            target = "\(path).corrupt-\(now.seconds)-\(attempt)"
            attempt += 1
        }
        if rename(path, target) != 0 {
            return .corrupt(reason: reason + "; could not move it aside: \(String(cString: strerror(errno)))", movedTo: path)
        }
        return .corrupt(reason: reason, movedTo: target)
    }

    /// Writes `document` so that either the old or the new file exists after any crash.
    ///
    /// The new bytes go into a spare file beside it (`NAME.tmp`), which is synced, then swapped
    /// with the file in one step (`renameat2` with `RENAME_EXCHANGE`), and the directory is
    /// synced: until the swap is on disk the file holds the old document, after it the new one.
    /// The spare keeps the previous document's inode and blocks for the next write, which
    /// overwrites it in place: a write allocates, frees and truncates nothing, where a new temp
    /// file each time (create, rename over, evict the old inode) cost about half of an alarm
    /// fire's CPU in the loop (`perf`: `ext4_create`, `find_inode_bit`, `ext4_evict_inode`).
    /// The first write (no file to swap with), a file system without the exchange (EINVAL,
    /// EOPNOTSUPP) or a kernel without `renameat2` (ENOSYS) takes a plain rename.
    public func write(_ name: String, _ document: JSONValue) throws(PlatformError) {
        let path = path(of: name)
        let spare = path + ".tmp"
        let bytes = Array((document.serialized + "\n").utf8)
        let mode: mode_t = Self.privateFiles.contains(name) ? 0o600 : 0o640
        let fd = open(spare, O_WRONLY | O_CREAT | O_CLOEXEC, mode)
        guard fd >= 0 else { throw PlatformError("cannot write \(spare): \(String(cString: strerror(errno)))") }
        // The spare is reused (it was the file before the last swap): a file written before it was private becomes so now.
        if Self.privateFiles.contains(name) { _ = fchmod(fd, mode) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(written)) }
            if n < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                close(fd)
                throw PlatformError("cannot write \(spare): \(message)")
            }
            written += n
        }
        // Only what is left of a longer previous document; fdatasync covers the new size.
        if ftruncate(fd, off_t(bytes.count)) != 0 || fdatasync(fd) != 0 {
            let message = String(cString: strerror(errno))
            close(fd)
            throw PlatformError("cannot sync \(spare): \(message)")
        }
        close(fd)
        if renameat2(AT_FDCWD, spare, AT_FDCWD, path, UInt32(Self.renameExchange)) != 0 {
            guard [ENOENT, EINVAL, ENOSYS, EOPNOTSUPP].contains(errno), rename(spare, path) == 0 else {
                throw PlatformError("cannot replace \(path): \(String(cString: strerror(errno)))")
            }
        }
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
        StateWriteLedger.record(name, bytes: bytes.count)
    }

    /// RENAME_EXCHANGE from <stdio.h>, hidden from Swift without _GNU_SOURCE.
    private static let renameExchange: Int32 = 1 << 1
}
