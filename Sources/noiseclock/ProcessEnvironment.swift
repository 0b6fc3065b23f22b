#if canImport(Glibc)
import Glibc
#endif

/// The process's environment and stderr through libc: Foundation (for `ProcessInfo` and
/// `FileHandle`) would add ~10 MB of resident libraries to a process that needs neither.
enum ProcessEnvironment {
    /// Every `NAME=value` entry; when a name repeats, the first wins (as `getenv` reads it).
    static func current() -> [String: String] {
        var variables: [String: String] = [:]
        let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = table else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), variables[String(text[..<equals])] == nil {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }

    /// Writes `line` and a newline to stderr, whole (retrying short writes and EINTR).
    static func printError(_ line: String) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
