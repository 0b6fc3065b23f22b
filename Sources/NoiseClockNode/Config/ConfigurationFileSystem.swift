#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NoiseClockPlatform

/// The few file-system questions the loader asks, with `errno` in words for the messages.
enum ConfigurationFileSystem {
    /// The whole file as UTF-8 text, or the reason it cannot be read.
    static func readText(_ path: String) -> Result<String, FileProblem> {
        switch FileBytes.read(path, limit: 1 << 20) {
        case .failure(let failure): return .failure(FileProblem(errno: failure.code))
        case .success(let bytes) where bytes.count > 1 << 20: return .failure(FileProblem(message: "larger than 1 MiB"))
        case .success(let bytes): return .success(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The permission bits (`0o640`), nil when the file cannot be examined.
    static func permissions(_ path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFDIR)
    }

    /// nil when `path` is a regular file this process may read; otherwise why not.
    static func problemReading(_ path: String) -> FileProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return FileProblem(errno: errno) }
        guard (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFREG) else { return FileProblem(message: "not a regular file") }
        guard access(path, R_OK) == 0 else { return FileProblem(errno: errno) }
        return nil
    }

    /// This machine's host name ("" when it cannot be had).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
