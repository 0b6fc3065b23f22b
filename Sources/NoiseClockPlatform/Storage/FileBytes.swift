import Glibc

/// The node's one way to read files: whole-file reads, directory listings and link lookups with
/// plain libc calls (no Foundation), for state files, zoneinfo, sysfs, the sound catalog and
/// custom sounds, and the configuration.
public enum FileBytes {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let code: Int32
        public let path: String
        /// Words for a failure that is no `errno` (`code` is then EINVAL).
        public var reason: String?
        public var description: String { "\(path): \(reason ?? String(cString: strerror(code)))" }
    }

    /// The file's bytes, up to a little past `limit`. Opened with `O_NONBLOCK` and read only if
    /// the opened descriptor is a regular file: a FIFO or device in a file's place (even one
    /// swapped in after a `stat`) is an error at once, never a thread held in `open` or `read`.
    public static func read(_ path: String, limit: Int = 16 * 1024 * 1024) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(code: errno, path: path)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(code: errno, path: path)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(Failure(code: EINVAL, path: path, reason: "not a regular file")) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while result.count <= limit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(code: errno, path: path))
            }
            if n == 0 { break }
            result.append(contentsOf: buffer[0..<n])
        }
        return .success(result)
    }

    /// The file's bytes, or nil if it cannot be read or is larger than `limit`.
    public static func contents(of path: String, limit: Int = 4 << 20) -> [UInt8]? {
        guard case .success(let bytes) = read(path, limit: limit), bytes.count <= limit else { return nil }
        return bytes
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Where a symbolic link points, or nil if `path` is not a link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a directory (not `.` and `..`), or nil when it cannot be listed.
    public static func directoryEntries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` is a regular file (following links).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
