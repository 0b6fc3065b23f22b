/// An option of any type, for the parser (which names take a value) and the help.
protocol AnyCommandOption: Sendable {
    var name: String { get }
    var helpLine: String { get }
    /// `--name <value>`, or a flag (`--name` alone).
    var takesValue: Bool { get }
}

extension CommandOption {
    var takesValue: Bool { true }
}
