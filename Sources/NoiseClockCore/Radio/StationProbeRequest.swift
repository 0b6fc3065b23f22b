/// `station/test` between the machine and the probe's adapter (which connects and decodes off
/// the loop): the address to probe, and what it heard or why not.
public struct StationProbeRequest: Sendable, Equatable {
    public var id: UInt64
    public var url: String

    public init(id: UInt64, url: String) {
        self.id = id
        self.url = url
    }
}

/// `{"first_audio_ms", "codec", "bitrate_kbps", "sample_rate", "channels", "title"}`, or the cause.
public typealias StationProbeOutcome = AdapterOutcome<JSONValue, StationProbeFailure>

public struct StationProbeFailure: Error, Sendable, Equatable {
    public var cause: String

    public init(cause: String) { self.cause = StreamFallback.normalisedProbeCause(cause) }
}

extension StreamFallback {
    /// A probe's cause as the contract spells it (`stalled` is a ringing stream's, not a probe's).
    static func normalisedProbeCause(_ cause: String) -> String { cause == "stalled" ? "timeout" : normalised(cause) }
}
