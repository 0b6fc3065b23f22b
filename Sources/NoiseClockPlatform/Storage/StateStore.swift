import Glibc
import NoiseClockCore

/// The node's state files in `state_dir`: JSON documents written atomically so that an
/// acknowledged change survives `kill -9` and power loss (temp file, fsync, rename, fsync the
/// directory). A file that cannot be parsed is moved aside, never overwritten, and reported.
public struct StateStore: Sendable {
    public enum Loaded: Sendable, Equatable {
        case missing
        case document(JSONValue)
        /// The file was unreadable or not JSON; it now lives at `movedTo` for a human to inspect.
        case corrupt(reason: String, movedTo: String)
    }

    public let directory: String

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
    public func write(_ name: String, _ document: JSONValue) throws(PlatformError) {
        let path = path(of: name)
        let temp = path + ".tmp"
        let bytes = Array((document.serialized + "\n").utf8)
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw PlatformError("cannot write \(temp): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                close(fd)
                unlink(temp)
                throw PlatformError("cannot write \(temp): \(message)")
            }
            written += n
        }
        if fsync(fd) != 0 {
            let message = String(cString: strerror(errno))
            close(fd)
            unlink(temp)
            throw PlatformError("cannot sync \(temp): \(message)")
        }
        close(fd)
        guard rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            throw PlatformError("cannot replace \(path): \(message)")
        }
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }
}
