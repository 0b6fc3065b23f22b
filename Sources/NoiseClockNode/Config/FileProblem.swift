#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be used, e.g. "No such file or directory".
struct FileProblem: Error, Equatable, CustomStringConvertible {
    let message: String

    init(message: String) { self.message = message }
    init(errno code: Int32) { self.message = String(cString: strerror(code)) }

    var description: String { message }
}
