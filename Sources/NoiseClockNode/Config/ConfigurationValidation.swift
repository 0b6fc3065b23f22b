/// Checks shared by several keys. Each returns a message, or nil when the value is fine.
enum ConfigurationValidation {
    static func range(_ value: Int, _ range: ClosedRange<Int>) -> String? {
        range.contains(value) ? nil : "must be between \(range.lowerBound) and \(range.upperBound), got \(value)"
    }

    static func atLeast(_ value: Int, _ minimum: Int) -> String? {
        value >= minimum ? nil : "must be at least \(minimum), got \(value)"
    }

    static func notEmpty(_ value: String) -> String? {
        value.isEmpty ? "must not be empty" : nil
    }

    /// `[a-z0-9_-]+`, and not `all` (that level is the group-command topic).
    static func nodeID(_ value: String) -> String? {
        guard !value.isEmpty, value.unicodeScalars.allSatisfy(isNodeIDCharacter) else {
            return "must be one or more of a-z, 0-9, _ and -, got \"\(value)\""
        }
        return value == "all" ? "\"all\" is reserved for group commands ({base}/all/...)" : nil
    }

    /// A topic prefix: no wildcards, no empty level, no leading or trailing `/`.
    static func topicPrefix(_ value: String) -> String? {
        if value.isEmpty { return "must not be empty" }
        if value.contains("+") || value.contains("#") { return "must not contain the wildcards + or #, got \"\(value)\"" }
        if value.hasPrefix("/") || value.hasSuffix("/") { return "must not start or end with /, got \"\(value)\"" }
        if value.contains("//") { return "must not contain an empty level (//), got \"\(value)\"" }
        if value.unicodeScalars.contains(where: { $0.value == 0 }) { return "must not contain NUL" }
        return nil
    }

    /// The host name as a node id: lower-cased, anything outside `[a-z0-9_-]` replaced by `_`.
    static func nodeID(fromHostName hostName: String) -> String {
        let mapped = hostName.lowercased().unicodeScalars.map { isNodeIDCharacter($0) ? Character($0) : "_" }
        return mapped.isEmpty ? "noiseclock" : String(mapped)
    }

    private static func isNodeIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }
}
