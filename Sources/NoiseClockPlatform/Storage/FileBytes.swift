import Glibc

/// Reads whole small files without Foundation.
public enum FileBytes {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let code: Int32
        public let path: String
        public var description: String { "\(path): \(String(cString: strerror(code)))" }
    }

    public static func read(_ path: String, limit: Int = 16 * 1024 * 1024) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(code: errno, path: path)) }
        defer { close(fd) }
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

    public static func readText(_ path: String) -> String? {
        guard case .success(let bytes) = read(path, limit: 1024 * 1024) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
