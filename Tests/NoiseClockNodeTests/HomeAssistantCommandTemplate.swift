import NoiseClockCore

/// What Home Assistant publishes when an MQTT entity is used, from its discovery config: the
/// platform's value (a button's `payload_press`, a switch's `payload_on`/`payload_off`, a
/// select's option, a number, a text) passed through `command_template` when there is one.
///
/// Renders only the Jinja forms the node's templates use — `{{ value }}`, `{{ value | to_json }}`
/// and `{{ 'a' if value == 'B' else 'c' }}` — and throws on anything else, so a new template form
/// fails the test instead of being guessed at.
enum HomeAssistantCommandTemplate {
    /// The payload Home Assistant sends for `value` (already the platform's value: `ON`, `35`, `day`).
    static func payload(_ config: JSONObject, value: String) throws -> String {
        guard let template = config["command_template"]?.stringValue else { return value }
        return try render(template, value: value)
    }

    /// A button press: `payload_press`, `PRESS` by default.
    static func press(_ config: JSONObject) throws -> String {
        try payload(config, value: config["payload_press"]?.stringValue ?? "PRESS")
    }

    /// A switch turned on or off: `payload_on` / `payload_off`, `ON` / `OFF` by default.
    static func turn(_ config: JSONObject, on: Bool) throws -> String {
        let value = on ? config["payload_on"]?.stringValue ?? "ON" : config["payload_off"]?.stringValue ?? "OFF"
        return try payload(config, value: value)
    }

    static func render(_ template: String, value: String) throws -> String {
        guard !template.contains("{%") else { throw TestFailure("statements are not supported: \(template)") }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { throw TestFailure("unclosed {{ in \(template)") }
            out += try expression(String(rest[open.upperBound..<close.lowerBound]), value: value)
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    private static func expression(_ text: String, value: String) throws -> String {
        let source = text.trimmingWhitespace()
        // `{'text': value} | to_json`: an object of one key.
        if let match = source.wholeMatch(of: /\{'([^']*)':\s*(.+?)\}\s*\|\s*to_json/) {
            return JSONValue.object(JSONObject([(String(match.1), .string(try term(String(match.2), value: value)))])).serialized
        }
        if let match = source.wholeMatch(of: /(.+?)\s*\|\s*to_json/) {
            return JSONValue.string(try term(String(match.1), value: value)).serialized
        }
        if let match = source.wholeMatch(of: /(.+?) if value (==|!=) '([^']*)' else (.+)/) {
            let equal = value == String(match.3)
            let chosen = (match.2 == "==") == equal ? match.1 : match.4
            return try term(String(chosen), value: value)
        }
        return try term(source, value: value)
    }

    private static func term(_ text: String, value: String) throws -> String {
        let source = text.trimmingWhitespace()
        if source == "value" { return value }
        if let match = source.wholeMatch(of: /'([^']*)'/) { return String(match.1) }
        throw TestFailure("unsupported template expression: \(source)")
    }
}
