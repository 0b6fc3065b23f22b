/// A problem with the command line: printed with the command's usage, exit status 64
/// (`EX_USAGE`), as swift-argument-parser did.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
