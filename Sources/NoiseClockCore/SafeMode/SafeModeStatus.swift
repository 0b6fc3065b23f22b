/// Why and since when the node runs in safe mode (mqtt-api v1.4, "Safe mode"): `~/info`'s
/// `safe_mode`, the readiness problem `safe_mode` and the face's banner are made from it.
public struct SafeModeStatus: Sendable, Equatable {
    /// When this safe-mode start began, on the node's clock.
    public var since: Instant
    /// The crashed starts in a row that led to it.
    public var crashedStarts: Int
    /// The last crash's signal or fatal message, as far as the node could record it.
    public var lastError: String?

    public init(since: Instant, crashedStarts: Int, lastError: String?) {
        self.since = since
        self.crashedStarts = crashedStarts
        self.lastError = lastError
    }

    /// `{"since", "crashed_starts", "last_error"}`.
    public func json(zone: ZoneRules) -> JSONValue {
        .object(JSONObject([
            ("since", .string(ISO8601.string(since, in: zone))),
            ("crashed_starts", .int(Int64(crashedStarts))),
            ("last_error", .optional(lastError)),
        ]))
    }

    /// The readiness problem every check names while the node is in safe mode.
    public var problem: ReadinessProblem {
        let why = lastError.map { " (last: \($0))" } ?? ""
        return ReadinessProblem(.safeMode, "the node crashed at \(crashedStarts) starts in a row\(why) and runs in safe mode: "
            + "stations, the sounds folder, speech, the lamp and the shaker are off; alarms ring their built-in sound or the fallback tone")
    }
}
