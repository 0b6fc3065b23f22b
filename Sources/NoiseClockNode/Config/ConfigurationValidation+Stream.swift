import NoiseClockCore

/// The `stream:` keys' checks.
extension ConfigurationValidation {
    /// `none` or a synthesised noise: what covers a sleep radio's outage must need neither disk nor
    /// network (a custom file could be gone, a station is what is down).
    static func fallbackNoise(_ value: String) -> String? {
        if value == StreamSettings.noFallbackNoise || StreamSettings.synthesisedNoises.contains(value) { return nil }
        let allowed = StreamSettings.synthesisedNoises.joined(separator: ", ")
        return "must be one of \(allowed) or \(StreamSettings.noFallbackNoise) (silence), got \"\(value.prefix(64))\""
    }

    /// A `User-Agent` header's value: 1–200 printable ASCII characters, so no line break can add a
    /// header of its own.
    static func userAgent(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 200 else { return "must be 1-200 characters, got \(value.utf8.count) bytes" }
        guard value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            return "must be printable ASCII (no control characters or line breaks)"
        }
        return nil
    }

    /// `none`, or an `http(s)://` address with a host and no query (the API's paths go after it).
    static func directoryURL(_ value: String) -> String? {
        if value == StreamSettings.noDirectory { return nil }
        guard Station.isValidURL(value), !value.contains("?"), !value.contains("#") else {
            return "must be an http:// or https:// address without spaces, query or fragment (or none), got \"\(value.prefix(64))\""
        }
        return nil
    }
}
