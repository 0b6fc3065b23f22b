/// The rule that counts crashed starts (`<state_dir>/starts.json`, mqtt-api v1.4 "Safe mode"):
/// a start that ends without a clean stop within its first 10 minutes on the node's clock is a
/// crashed start; after 2 in a row the node starts in safe mode. A pure value: the node reads
/// the file, asks this what the start means, and writes back `document`.
///
/// While a start is young the file carries `running` (written at start, cleared at a clean stop
/// or once the start is 10 minutes old): finding it at the next start is how a crash is told.
public struct StartLedger: Sendable, Equatable {
    /// A start younger than this that ends without a clean stop is a crashed start.
    public static let settleSeconds: Int64 = 10 * 60
    /// Crashed starts in a row that make the next start a safe-mode start.
    public static let crashedStartsForSafeMode = 2
    /// The count stops here (it is read from a file: bounded before any arithmetic).
    static let countCap = 1_000_000
    /// `last_error` as read back from the file, at most this many scalars.
    static let errorCap = 300
    public static let documentVersion = 1

    /// The start in progress, until its clean stop or its 10 minutes.
    public struct Running: Sendable, Equatable {
        public var startedAt: Instant
        public var safeMode: Bool
    }

    public internal(set) var crashedStarts = 0
    public internal(set) var lastError: String?
    public internal(set) var running: Running?

    public init() {}

    /// Reads `starts.json`; anything unusable counts as no crash (a missing file is a first start).
    public init(restoring document: JSONValue?) {
        guard let document else { return }
        crashedStarts = min(max(document["crashed_starts"]?.intValue ?? 0, 0), Self.countCap)
        lastError = document["last_error"]?.stringValue.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(Self.errorCap))) }
        if let started = document["running"]?["started_at"]?.intValue {
            // A start recorded far outside any clock this node could read is still a start.
            let bound = Int64(1) << 52
            running = Running(startedAt: Instant(milliseconds: min(max(Int64(started), -bound), bound)),
                              safeMode: document["running"]?["safe_mode"]?.boolValue ?? false)
        }
    }

    public var document: JSONValue {
        let running: JSONValue = self.running.map {
            .object(JSONObject([("started_at", .int($0.startedAt.milliseconds)), ("safe_mode", .bool($0.safeMode))]))
        } ?? .null
        return .object(JSONObject([
            ("version", .int(Int64(Self.documentVersion))),
            ("crashed_starts", .int(Int64(crashedStarts))),
            ("last_error", .optional(lastError)),
            ("running", running),
        ]))
    }

    /// A start at `now`: the previous start counts as crashed when it left `running` behind
    /// (`crashRecord`: what the crash handler wrote, if anything). Returns the safe mode this
    /// start runs in, nil for a normal start.
    public mutating func begin(now: Instant, crashRecord: String?) -> SafeModeStatus? {
        if running != nil {
            crashedStarts = min(crashedStarts + 1, Self.countCap)
            lastError = crashRecord ?? "no clean stop within its first 10 minutes (killed, power lost, or a signal the node could not record)"
        }
        let safe = crashedStarts >= Self.crashedStartsForSafeMode
        running = Running(startedAt: now, safeMode: safe)
        return safe ? SafeModeStatus(since: now, crashedStarts: crashedStarts, lastError: lastError) : nil
    }

    /// When the running start turns 10 minutes old (nil: no young start).
    public var settleDeadline: Instant? { running.map { $0.startedAt.adding(seconds: Self.settleSeconds) } }

    /// The running start is 10 minutes old at `now`: it is not a crashed start whatever comes
    /// next, and the count starts again (a safe-mode start that lasted so long ends safe mode at
    /// the next start). Returns whether anything changed (the file is then written).
    public mutating func settle(now: Instant) -> Bool {
        guard let deadline = settleDeadline, now >= deadline else { return false }
        crashedStarts = 0
        running = nil
        return true
    }

    /// A clean stop. A normal start's clears the count; a safe-mode start younger than 10
    /// minutes keeps it (the next start is in safe mode again: only time or `safe_mode/exit` end it).
    public mutating func stoppedCleanly() {
        if running?.safeMode != true { crashedStarts = 0 }
        running = nil
    }

    /// `~/safe_mode/exit`: the count cleared, the next start normal.
    public mutating func exitSafeMode() {
        crashedStarts = 0
        running = nil
    }
}
