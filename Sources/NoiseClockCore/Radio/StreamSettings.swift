/// The `stream:` configuration (v1.3, Radio) the core needs: how long before the ring an
/// alarm's station is connected, how long a ring waits for its first audible sample before
/// ringing the fallback tone, and what a sleep radio fades into while its station is down.
public struct StreamSettings: Sendable, Equatable {
    public var prerollSeconds: Int
    public var timeoutSeconds: Int
    /// A noise sound id, or nil for silence.
    public var fallbackNoise: String?

    public static let prerollRange = 0...120
    public static let timeoutRange = 2...30

    public init(prerollSeconds: Int = 30, timeoutSeconds: Int = 5, fallbackNoise: String? = "brown") {
        self.prerollSeconds = prerollSeconds
        self.timeoutSeconds = timeoutSeconds
        self.fallbackNoise = fallbackNoise
    }

    /// The tone an alarm on a station rings when the station cannot be heard: the engine's own
    /// fallback (a built-in, synthesised: it needs neither disk nor network).
    public static let fallbackTone = "beep"
}

/// Why a ringing alarm's station gave way to the fallback tone: `~/alarm/event` `sounding`
/// carries `"fallback": true, "reason": "stream_unavailable", "cause"`. Kept for the ring that
/// began at `ringSince` only: after a snooze the station is tried again.
public struct StreamFallback: Hashable, Sendable {
    /// `dns`, `refused`, `timeout`, `http_<status>`, `tls`, `no_audio`, `undecodable`, `silent`, `stalled`.
    public var cause: String
    public var at: Instant
    public var ringSince: Instant

    public init(cause: String, at: Instant, ringSince: Instant) {
        self.cause = cause
        self.at = at
        self.ringSince = ringSince
    }

    /// Causes a stream player reports (the contract's list, and `stalled` for a stall while ringing).
    public static let causes: Set<String> = ["dns", "refused", "timeout", "tls", "no_audio", "undecodable", "silent", "stalled"]

    /// A cause as the contract spells it: one of `causes` or `http_<3 digits>`; anything else is `no_audio`.
    public static func normalised(_ cause: String) -> String {
        if causes.contains(cause) { return cause }
        let digits = cause.dropFirst(5)
        if cause.hasPrefix("http_"), digits.count == 3, digits.allSatisfy(\.isNumber) { return cause }
        return "no_audio"
    }
}
