/// The one place numbers in commands are range-checked, so every field says the same thing
/// when it is refused: `volume must be a whole number from 0 to 100, got 120`.
public enum FieldCheck {
    /// A whole number in `range` (`50.0` counts as whole; `50.5`, `"50"` and `true` do not).
    public static func integer(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard let number = value.intValue else {
            throw .invalidField(key, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.typeName)")
        }
        return try checked(number, key, in: range)
    }

    /// A plain-text payload (`mosquitto_pub -m 40`) as a whole number in `range`.
    public static func integer(text: String, _ key: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard let number = Int(text.trimmingWhitespace()) else {
            throw .invalidField(key, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text.prefix(32))\"")
        }
        return try checked(number, key, in: range)
    }

    /// `number` itself, if `range` holds it.
    public static func checked(_ number: Int, _ key: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard range.contains(number) else {
            throw .invalidField(key, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(number)")
        }
        return number
    }

    /// The 0–100 scale of volumes, opacities and percentages.
    public static let percent = 0...100
}
