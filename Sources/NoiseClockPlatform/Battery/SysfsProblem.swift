/// Something wrong with the power-supply tree. `key` identifies it for logging once.
struct SysfsProblem: Error, Sendable, Equatable {
    var file: String
    var kind: String
    var message: String

    var key: String { kind + " " + file }
}
