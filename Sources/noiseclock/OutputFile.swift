#if canImport(Glibc)
import Glibc
#endif

/// The file a subcommand writes (`render --output`, `say --output`): created or emptied, and a
/// failure said as a usage error that names it.
enum OutputFile {
    static func create(_ path: String) throws(UsageError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw cannotWrite(path) }
        return descriptor
    }

    /// Why `path` could not be written, read from `errno` (call it right after the failed call).
    static func cannotWrite(_ path: String) -> UsageError {
        UsageError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
}
