/// Ends the process with this status (after the command has said what went wrong).
struct ExitStatus: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
