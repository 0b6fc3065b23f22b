/// Reading style fields from JSON: `style/set` (strict, all or nothing) and the state file (lenient).
extension ClockStyle {
    /// Keys a command may carry that are not style fields: the response's `request_id`, and the
    /// published form's read-only additions, so a client may send back exactly what it read.
    static let ignoredInputKeys: Set<String> = ["request_id", "contrast_ratio", "warnings"]

    /// This style with the given fields changed. Any unknown key or bad value rejects the whole
    /// object with `invalid_field` naming the first offender (in the order given).
    public func merging(_ object: JSONObject) throws(CommandError) -> ClockStyle {
        var style = self
        for pair in object.pairs where !Self.ignoredInputKeys.contains(pair.key) {
            try style.set(pair.key, to: pair.value)
        }
        return style
    }

    /// The stored fields over the defaults; a bad or unknown field is skipped, never fatal.
    public init(lenient object: JSONObject) {
        self.init()
        for pair in object.pairs {
            try? set(pair.key, to: pair.value)
        }
    }

    /// Sets one field from its JSON value.
    public mutating func set(_ key: String, to value: JSONValue) throws(CommandError) {
        switch key {
        case "use_24_hour": use24Hour = try Self.bool(key, value)
        case "show_seconds": showSeconds = try Self.bool(key, value)
        case "show_ampm": showAMPM = try Self.bool(key, value)
        case "digit_color": digitColor = try Self.color(key, value)
        case "background_color": backgroundColor = try Self.color(key, value)
        case "glow": glow = try Self.percent(key, value)
        case "auto_fit": autoFit = try Self.bool(key, value)
        case "scale": scale = try Self.percent(key, value)
        case "digit_opacity": digitOpacity = try Self.percent(key, value)
        case "overlay_opacity": overlayOpacity = try Self.percent(key, value)
        case "random_color": randomColor = try Self.bool(key, value)
        case "font_family": fontFamily = try Self.choice(key, value, FontFamily.self)
        case "font_weight": fontWeight = try Self.choice(key, value, FontWeight.self)
        case "font_design": fontDesign = try Self.choice(key, value, FontDesign.self)
        case "show_battery": showBattery = try Self.bool(key, value)
        case "show_date": showDate = try Self.bool(key, value)
        case "keep_awake": keepAwake = try Self.bool(key, value)
        case "face_light": faceLight = try Self.bool(key, value)
        default: throw CommandError.invalidField(String(key.prefix(64)), "unknown style field \"\(key.prefix(64))\"")
        }
    }

    /// Only JSON `true`/`false`: `"true"`, `1` or `"on"` are refused, so a typo cannot flip a switch.
    private static func bool(_ key: String, _ value: JSONValue) throws(CommandError) -> Bool {
        guard let flag = value.boolValue else {
            throw CommandError.invalidField(key, "\(key) must be true or false, got \(value.typeName)")
        }
        return flag
    }

    /// A whole number 0–100 (`50.0` counts as whole; `50.5` does not).
    private static func percent(_ key: String, _ value: JSONValue) throws(CommandError) -> Int {
        try FieldCheck.integer(value, key, in: FieldCheck.percent)
    }

    private static func color(_ key: String, _ value: JSONValue) throws(CommandError) -> RGBColor {
        guard let text = value.stringValue, let color = RGBColor(hex: text) else {
            throw CommandError.invalidField(key, "\(key) must be a colour \"#RGB\" or \"#RRGGBB\"")
        }
        return color
    }

    /// One of the enumeration's spellings, exactly (lower-case snake_case, as published).
    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, _ value: JSONValue, _ type: Choice.Type
    ) throws(CommandError) -> Choice where Choice.RawValue == String {
        guard let text = value.stringValue, let choice = Choice(rawValue: text) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandError.invalidField(key, "\(key) must be one of: \(allowed)")
        }
        return choice
    }
}
