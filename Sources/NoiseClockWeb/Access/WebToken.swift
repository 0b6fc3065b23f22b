#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore

/// The web app's access token: created at first start (192 random bits, URL-safe, file mode
/// 0600), read on every later start. Never logged.
public enum WebToken {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The token in `path`, creating the file (and nothing else) when it is missing.
    public static func loadOrCreate(_ path: String) throws(Problem) -> String {
        if let existing = try readExisting(path) { return existing }
        let token = generate()
        // O_EXCL: if another process created it meanwhile, use theirs rather than overwrite it.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST, let theirs = try readExisting(path) { return theirs }
            throw Problem(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            unlink(path)
            throw Problem(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return token
    }

    /// The token in an existing file (its first line, trimmed); nil when the file is missing.
    public static func readExisting(_ path: String) throws(Problem) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Problem(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw Problem(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        let line = buffer.prefix(count).prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        let token = String(decoding: line, as: UTF8.self).trimmingWhitespace()
        guard token.utf8.count >= 16 else {
            throw Problem(description: "\(path) holds no usable token (at least 16 characters); delete it to get a new one")
        }
        return token
    }

    /// 24 random bytes from the kernel, as URL-safe base64 without padding (32 characters).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }
}

enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            let characters = chunk.count + 1
            for position in 0..<characters { out.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
