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
        let bytes: [UInt8]
        switch FileBytes.read(path, limit: maxBytes) {
        case .failure(let failure):
            return failure.code == ENOENT || failure.code == ENOTDIR ? .missing : .failed(describe(failure.code))
        case .success(let read): bytes = read
        }
        guard bytes.count <= maxBytes else { return .failed("larger than \(maxBytes) bytes") }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failed("not UTF-8 text") }
        return .text(text.trimmingWhitespace())
    }

    private static func describe(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
