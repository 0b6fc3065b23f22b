/// One subcommand's arguments: `--name value`, `--name=value`, `--flag`, positionals, and `--`
/// before positionals that start with a dash. Hand-written because swift-argument-parser
/// links FoundationEssentials (about 2 MB resident) into a node that needs four subcommands.
struct CommandLineArguments {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []
    private(set) var helpRequested = false

    /// `options` take a value, `flags` do not (names without the leading `--`).
    init(_ arguments: [String], options: Set<String>, flags allowedFlags: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                helpRequested = true
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError("Unknown option '\(argument)'") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            if options.contains(name) {
                if let equals = body.firstIndex(of: "=") {
                    values[name] = String(body[body.index(after: equals)...])
                } else {
                    guard index < arguments.count else { throw UsageError("Missing value for '--\(name) <\(name)>'") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else if allowedFlags.contains(name), !body.contains("=") {
                flags.insert(name)
            } else {
                throw UsageError("Unknown option '--\(name)'")
            }
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The only positional argument, named `name` in messages.
    func single(_ name: String) throws(UsageError) -> String {
        guard let first = positionals.first else { throw UsageError("Missing expected argument '<\(name)>'") }
        try noMorePositionals(than: 1)
        return first
    }

    func noMorePositionals(than count: Int = 0) throws(UsageError) {
        if positionals.count > count { throw UsageError("Unexpected argument '\(positionals[count])'") }
    }
}
