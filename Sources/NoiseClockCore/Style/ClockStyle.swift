/// How every display on the broker draws the clock, and how the node's own `~/time` reads.
/// The node has no screen: this is the shared truth that dashboards and LED clocks render from.
///
/// Defaults the contract leaves open are chosen here: `glow` 50, `scale` 100,
/// `digit_opacity` 100, `overlay_opacity` 50, `font_family` system, `font_weight` regular,
/// `font_design` default.
public struct ClockStyle: Sendable, Equatable {
    public var use24Hour = true
    public var showSeconds = false
    public var showAMPM = true
    /// The user's own digit colour. While `randomColor` is on, displays are sent the minute's
    /// random colour instead (see `StyleFeature`); this one comes back when random is turned off.
    public var digitColor = RGBColor.white
    public var backgroundColor = RGBColor.black
    public var glow = 50
    public var autoFit = true
    public var scale = 100
    public var digitOpacity = 100
    public var overlayOpacity = 50
    public var randomColor = false
    public var fontFamily = FontFamily.system
    public var fontWeight = FontWeight.regular
    public var fontDesign = FontDesign.default
    public var showBattery = true
    public var showDate = true
    public var keepAwake = false
    /// The web face's background follows `~/light` during a sunrise or a lit routine (v1.2).
    public var faceLight = true

    public init() {}

    public static let defaults = ClockStyle()

    /// Below this contrast ratio (WCAG AA for normal text) the output carries a warning.
    public static let minimumContrast = 4.5

    /// Digits against background, rounded to two decimals.
    public var contrastRatio: Double { digitColor.roundedContrastRatio(against: backgroundColor) }

    /// Every field in the contract's order, digits in `digitColor`. This is what is stored.
    public var fieldsJSON: JSONObject {
        JSONObject([
            ("use_24_hour", .bool(use24Hour)),
            ("show_seconds", .bool(showSeconds)),
            ("show_ampm", .bool(showAMPM)),
            ("digit_color", .string(digitColor.hex)),
            ("background_color", .string(backgroundColor.hex)),
            ("glow", .int(Int64(glow))),
            ("auto_fit", .bool(autoFit)),
            ("scale", .int(Int64(scale))),
            ("digit_opacity", .int(Int64(digitOpacity))),
            ("overlay_opacity", .int(Int64(overlayOpacity))),
            ("random_color", .bool(randomColor)),
            ("font_family", .string(fontFamily.rawValue)),
            ("font_weight", .string(fontWeight.rawValue)),
            ("font_design", .string(fontDesign.rawValue)),
            ("show_battery", .bool(showBattery)),
            ("show_date", .bool(showDate)),
            ("keep_awake", .bool(keepAwake)),
            ("face_light", .bool(faceLight)),
        ])
    }

    /// The published form: every field, then `contrast_ratio`, then `warnings` — always present,
    /// empty when the contrast is fine, so displays can read it without a nil check.
    public var json: JSONValue {
        var object = fieldsJSON
        let ratio = contrastRatio
        object["contrast_ratio"] = .double(ratio)
        var warnings: [JSONValue] = []
        if ratio < Self.minimumContrast {
            warnings.append(.string(
                "contrast ratio \(Self.twoDecimals(ratio)) between digit_color \(digitColor.hex) and background_color \(backgroundColor.hex) is below 4.5 (WCAG AA); the digits may be hard to read"
            ))
        }
        object["warnings"] = .array(warnings)
        return .object(object)
    }

    /// `4.48`, `21.00`: for messages (JSON numbers use the encoder's shortest form).
    private static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int64((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
