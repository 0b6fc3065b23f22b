/// The `stream:` configuration (v1.3, Radio): how long before the ring an alarm's station is
/// connected, how long a ring waits for its first audible sample before ringing the fallback
/// tone, what a sleep radio fades into while its station is down, and what the stream players
/// send and trust (`User-Agent`, a CA file besides the system's store).
public struct StreamSettings: Sendable, Equatable {
    public var prerollSeconds: Int
    public var timeoutSeconds: Int
    /// A built-in noise's id, or nil for silence.
    public var fallbackNoise: String?
    /// A CA certificate file (PEM) trusted besides the system's store; nil: the system's alone.
    public var caFile: String?
    public var userAgent: String
    /// `stream.allow_local_addresses` (v1.4): stations may reach loopback and link-local addresses.
    public var allowsLocalAddresses: Bool
    /// `stream.directory_url` (v1.4): the station directory (Radio Browser's API); nil: off.
    public var directoryURL: String? = StreamSettings.defaultDirectoryURL

    public static let defaultDirectoryURL = "https://all.api.radio-browser.info"
    /// `stream.directory_url`'s word for "no directory" (YAML's bare `null` means "not set").
    public static let noDirectory = "none"

    public static let prerollRange = 0...120
    public static let timeoutRange = 2...30
    /// `stream.fallback_noise`'s word for silence (YAML's bare `null` means "not set": `brown`).
    public static let noFallbackNoise = "none"
    /// The noises a sleep radio may fall back to: synthesised, so they need neither disk nor network.
    public static let synthesisedNoises = ["brown", "pink", "white", "rain", "ocean", "fan"]
    public static var defaultUserAgent: String { "NoiseClock/\(NoiseClockVersion.current)" }

    public init(
        prerollSeconds: Int = 30, timeoutSeconds: Int = 5, fallbackNoise: String? = "brown", caFile: String? = nil,
        userAgent: String = StreamSettings.defaultUserAgent, allowsLocalAddresses: Bool = false
    ) {
        self.allowsLocalAddresses = allowsLocalAddresses
        self.prerollSeconds = prerollSeconds
        self.timeoutSeconds = timeoutSeconds
        self.fallbackNoise = fallbackNoise
        self.caFile = caFile
        self.userAgent = userAgent
    }

    /// The tone an alarm on a station rings when the station cannot be heard: the engine's own
    /// fallback (a built-in, synthesised: it needs neither disk nor network).
    public static let fallbackTone = "beep"
}

/// Why a ringing alarm's station gave way to the fallback tone: `~/alarm/event` `sounding`
/// carries `"fallback": true, "reason": "stream_unavailable", "cause"`. Kept for the ring that
/// began at `ringSince` only: after a snooze the station is tried again.
public struct StreamFallback: Hashable, Sendable {
    /// `dns`, `refused`, `timeout`, `http_<status>`, `tls`, `no_audio`, `undecodable`, `silent`, `stalled`,
    /// `forbidden_address`.
    public var cause: String
    public var at: Instant
    public var ringSince: Instant

    public init(cause: String, at: Instant, ringSince: Instant) {
        self.cause = cause
        self.at = at
        self.ringSince = ringSince
    }

    /// Causes a stream player reports (the contract's list, and `stalled` for a stall while ringing;
    /// v1.4: `forbidden_address`, a loopback or link-local address without `stream.allow_local_addresses`).
    public static let causes: Set<String> = [
        "dns", "refused", "timeout", "tls", "no_audio", "undecodable", "silent", "stalled", "forbidden_address",
    ]

    /// A cause as the contract spells it: one of `causes` or `http_<3 digits>`; anything else is `no_audio`.
    public static func normalised(_ cause: String) -> String {
        if causes.contains(cause) { return cause }
        let digits = cause.dropFirst(5)
        if cause.hasPrefix("http_"), digits.count == 3, digits.allSatisfy(\.isNumber) { return cause }
        return "no_audio"
    }
}
