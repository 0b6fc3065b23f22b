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
