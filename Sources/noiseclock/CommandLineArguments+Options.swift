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
