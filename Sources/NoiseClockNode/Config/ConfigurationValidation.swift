import NoiseClockCore

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

    /// A sound device: a PCM name, never a definition that writes a file (`SoundDeviceName`).
    static func soundDevice(_ value: String) -> String? {
        SoundDeviceName.problem(value)
    }

    /// A path: no NUL, no control character (`PathText`).
    static func path(_ value: String) -> String? {
        PathText.problem(value)
    }

    /// A path that must be given: not empty either.
    static func requiredPath(_ value: String) -> String? {
        notEmpty(value) ?? path(value)
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

    /// A device's bridge: one of `DeviceEndpoint.Bridge`.
    static func deviceBridge(_ value: String) -> String? {
        DeviceEndpoint.Bridge(rawValue: value) == nil ? "must be zigbee2mqtt or tasmota, got \"\(value)\"" : nil
    }

    /// An address to listen on: a numeric IPv4 or IPv6 address, or `localhost`.
    static func listenAddress(_ value: String) -> String? {
        if value == "localhost" { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ part in part.count <= 3 && UInt8(part) != nil }) { return nil }
        let hex = value.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) || $0 == ":" }
        if value.contains(":"), hex, value.count <= 39 { return nil }
        return "must be an IP address to listen on (0.0.0.0, 127.0.0.1, ::) or localhost, got \"\(value)\""
    }

    /// Names a `Host` header may carry (`clock.home.example`): letters, digits, `-` and `.`, no
    /// port, no scheme.
    /// Each `host:port` (an IPv6 address in brackets), port 1–65535.
    static func brokerAddresses(_ values: [String]) -> String? {
        for value in values where BrokerAddress(parsing: value) == nil {
            return "each item must be host:port with a port from 1 to 65535 ([::1]:1883 for IPv6), got \"\(value.prefix(80))\""
        }
        return nil
    }

    static func hostNames(_ values: [String]) -> String? {
        for value in values {
            let ok = !value.isEmpty && value.count <= 253 && value.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
            }
            if !ok { return "each item must be a host name without port or scheme (clock.home.example), got \"\(value)\"" }
        }
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
