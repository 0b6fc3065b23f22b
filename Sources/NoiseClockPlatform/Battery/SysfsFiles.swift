#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The little file access sysfs needs, straight from libc: attribute files are tiny, and some
/// report a size of 4096 while holding a few bytes, so they are read until end of file.
enum SysfsFiles {
    enum Contents: Equatable {
        /// The file does not exist (an optional attribute).
        case missing
        /// The file's text with surrounding whitespace (the trailing newline) removed.
        case text(String)
        /// It exists but could not be read (permissions, a driver's I/O error, not UTF-8).
        case failed(String)
    }

    /// The largest attribute read; sysfs attributes are at most a page.
    static let maxBytes = 4096

    static func contents(of path: String) -> Contents {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .failed(describe(code))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytes.count <= maxBytes {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(describe(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        guard bytes.count <= maxBytes else { return .failed("larger than \(maxBytes) bytes") }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failed("not UTF-8 text") }
        return .text(text.trimmingWhitespace())
    }

    /// The names in a directory, or nil when it cannot be listed.
    static func directoryEntries(_ path: String) -> [String]? {
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

    private static func describe(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
