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
