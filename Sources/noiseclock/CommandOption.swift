/// One `--name <value>` option of a subcommand, stated once: its help line, its default and
/// its allowed range. The subcommand's help is printed from its options (`CommandHelp`) and its
/// values are read through them (`CommandLineArguments.value`), so the help cannot say one
/// default while the code uses another.
struct CommandOption<Value: CommandOptionValue>: AnyCommandOption {
    let name: String
    let help: String
    /// nil: the option must be given, or its absence is the caller's to handle.
    let defaultValue: Value?
    let range: ClosedRange<Value>?
    /// The default as the help states it when it is not a plain value (a search path, say).
    let defaultText: String?

    init(_ name: String, _ help: String, default defaultValue: Value? = nil, range: ClosedRange<Value>? = nil, defaultText: String? = nil) {
        self.name = name
        self.help = help
        self.defaultValue = defaultValue
        self.range = range
        self.defaultText = defaultText
    }

    var helpLine: String {
        guard let shown = defaultText ?? defaultValue.map({ "\($0)" }) else { return CommandHelp.line("--\(name) <\(name)>", help) }
        // "Length in seconds. (default: 10.0)", but "The catalog (default: ...)." for a help without its full stop.
        let text = help.hasSuffix(".") ? "\(help) (default: \(shown))" : "\(help) (default: \(shown))."
        return CommandHelp.line("--\(name) <\(name)>", text)
    }
}

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

/// `--name` alone: on or off.
struct CommandFlag: AnyCommandOption {
    let name: String
    let help: String

    init(_ name: String, _ help: String) {
        self.name = name
        self.help = help
    }

    var helpLine: String { CommandHelp.line("--\(name)", help) }
    var takesValue: Bool { false }
}

/// What an option's text reads as.
protocol CommandOptionValue: Comparable, Sendable, CustomStringConvertible {
    init?(option text: String)
}

extension String: CommandOptionValue {
    init?(option text: String) { self = text }
}

extension Int: CommandOptionValue {
    init?(option text: String) {
        guard let value = Int(text) else { return nil }
        self = value
    }
}

extension Double: CommandOptionValue {
    init?(option text: String) {
        guard let value = Double(text), value.isFinite else { return nil }
        self = value
    }
}

extension CommandLineArguments {
    /// The option's value, its default when not given; a usage error when it does not read as
    /// `Value` or lies outside the option's range.
    func value<Value>(_ option: CommandOption<Value>) throws(UsageError) -> Value? {
        guard let text = string(option.name) else { return option.defaultValue }
        guard let value = Value(option: text) else { throw UsageError("The value '\(text)' is invalid for '--\(option.name) <\(option.name)>'") }
        if let range = option.range, !range.contains(value) {
            throw UsageError("--\(option.name) must be \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// An option with a default, or one that must be given.
    func required<Value>(_ option: CommandOption<Value>) throws(UsageError) -> Value {
        guard let value = try value(option) else { throw UsageError("Missing expected argument '--\(option.name) <\(option.name)>'") }
        return value
    }
}

/// The layout swift-argument-parser printed, kept so scripts and docs stay as they were.
enum CommandHelp {
    /// `  --name <name>           Help.`; a long left column gets the help on its own line.
    static func line(_ left: String, _ help: String) -> String {
        let column = 26
        let head = "  " + left
        if head.count < column { return head + String(repeating: " ", count: column - head.count) + help }
        return head + "\n" + String(repeating: " ", count: column) + help
    }

    /// Usage, summary, the positional arguments and the options (with `-h, --help` last).
    static func text(usage: String, summary: String, arguments: [(String, String)] = [], options: [any AnyCommandOption]) -> String {
        var lines = ["USAGE: " + usage, "", summary, ""]
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            lines += arguments.map { line($0.0, $0.1) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        lines += options.map(\.helpLine)
        lines.append(line("-h, --help", "Show help information."))
        return lines.joined(separator: "\n")
    }
}
