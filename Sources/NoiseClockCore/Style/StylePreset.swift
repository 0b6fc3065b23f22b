/// The quick colour themes of `style/preset`. A preset sets only the two colours.
public enum StylePreset: String, Sendable, CaseIterable {
    /// White digits on black.
    case night
    /// Black digits on white.
    case day

    public var digitColor: RGBColor { self == .night ? .white : .black }
    public var backgroundColor: RGBColor { self == .night ? .black : .white }

    /// Reads the preset from a plain payload (`night`, ` DAY `), a JSON string, or
    /// `{"preset": "night"}`; case-insensitive. Anything else is `invalid_field` "preset".
    public init(payload: CommandPayload) throws(CommandError) {
        let name: String?
        switch payload {
        case .plain(let text), .json(.string(let text)): name = text
        case .json(.object(let object)): name = object["preset"]?.stringValue
        case .empty, .json: name = nil
        }
        guard let name, let preset = StylePreset(rawValue: name.trimmingWhitespace().lowercased()) else {
            throw CommandError.invalidField("preset", "preset must be \"night\" or \"day\"")
        }
        self = preset
    }

    /// The style with this preset's colours (the user's digit colour, also under random colour).
    public func applied(to style: ClockStyle) -> ClockStyle {
        var style = style
        style.digitColor = digitColor
        style.backgroundColor = backgroundColor
        return style
    }
}
