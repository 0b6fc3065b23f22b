/// Who may in: the token check (constant time), the session cookie, and the throttle on
/// failed tries. Time comes in as seconds on a monotonic clock, so this is plain logic.
public struct AccessGate: Sendable {
    public enum Decision: Equatable, Sendable {
        case allowed
        /// No credential, or a wrong one.
        case refused
        /// Too many wrong tries from this address: 429 until then.
        case throttled(retryAfterSeconds: Int64)
    }

    /// What a request presented.
    public struct Credentials: Sendable {
        public var bearer: String?
        /// Every `noiseclock_session` value the browser sent, in its order: a page on another port
        /// of the same host can set one more (`path=/api`, sent first), which must not shadow the
        /// node's own (cookie tossing, issue 31).
        public var cookies: [String]
        /// `?token=` on a page (sets the cookie when right).
        public var query: String?

        public init(bearer: String? = nil, cookie: String? = nil, cookies: [String] = [], query: String? = nil) {
            self.bearer = bearer
            self.cookies = (cookie.map { [$0] } ?? []) + cookies
            self.query = query
        }

        var presented: [String] { [bearer].compactMap { $0 } + cookies + [query].compactMap { $0 } }
    }

    public static let cookieName = "noiseclock_session"
    /// More than this many failures from one address within `window` seconds…
    public static let allowedFailures = 10
    public static let window: Int64 = 60
    /// Addresses remembered at most (oldest forgotten first), so a flood cannot grow memory.
    static let trackedAddresses = 1024

    /// nil: `auth: none`, everyone is let in.
    let token: [UInt8]?
    private var failures: [String: [Int64]] = [:]
    private var blockedUntil: [String: Int64] = [:]

    public init(token: String?) {
        self.token = token.map { Array($0.utf8) }
    }

    public var requiresToken: Bool { token != nil }

    /// Decides one request. A throttled address is refused whatever it presents, the right token
    /// too (a throttle that let it through would tell a guesser which guess was right). A request
    /// that presents nothing is refused but not counted as a try (a browser's first visit); one
    /// right credential lets it in and nothing is counted; when none is right, every wrong one
    /// counts as one guess (a wrong Bearer, two cookie values and a `?token=` are four).
    public mutating func check(_ credentials: Credentials, from address: String, now: Int64) -> Decision {
        guard let token else { return .allowed }
        if let until = blockedUntil[address] {
            if now < until { return .throttled(retryAfterSeconds: until - now) }
            blockedUntil[address] = nil
        }
        let presented = credentials.presented
        if presented.contains(where: { Self.constantTimeEqual(Array($0.utf8), token) }) { return .allowed }
        guard !presented.isEmpty else { return .refused }
        return recordFailures(presented.count, from: address, now: now)
    }

    /// Whether `candidate` is the token (false with `auth: none`, where there is none).
    public func matches(_ candidate: String?) -> Bool {
        guard let token, let candidate else { return false }
        return Self.constantTimeEqual(Array(candidate.utf8), token)
    }

    private mutating func recordFailures(_ count: Int, from address: String, now: Int64) -> Decision {
        var recent = (failures[address] ?? []).filter { now - $0 < Self.window }
        // Past the limit the count no longer matters (a header of 500 cookie values is throttled at once).
        recent += repeatElement(now, count: min(count, Self.allowedFailures + 1))
        if recent.count > Self.allowedFailures {
            failures[address] = nil
            blockedUntil[address] = now + Self.window
            return .throttled(retryAfterSeconds: Self.window)
        }
        if failures[address] == nil, failures.count >= Self.trackedAddresses { forgetOldest(now: now) }
        failures[address] = recent
        return .refused
    }

    private mutating func forgetOldest(now: Int64) {
        failures = failures.filter { now - ($0.value.last ?? 0) < Self.window }
        blockedUntil = blockedUntil.filter { $0.value > now }
        if failures.count >= Self.trackedAddresses, let oldest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) }) {
            failures[oldest.key] = nil
        }
    }

    /// Equal bytes, in time that depends only on the lengths (no early exit on the first difference).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt(a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= UInt(x ^ y)
        }
        return difference == 0
    }
}
