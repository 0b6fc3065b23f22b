/// A point in time: milliseconds since the Unix epoch, UTC. The core never reads a clock;
/// every rule is handed `now` as one of these.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }
    public init(seconds: Int64) { self.milliseconds = seconds * 1000 }

    /// Whole seconds, rounded towards the past (also before 1970).
    public var seconds: Int64 { milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000 }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public func adding(seconds: Int64) -> Instant { Instant(milliseconds: milliseconds + seconds * 1000) }
    public func adding(milliseconds ms: Int64) -> Instant { Instant(milliseconds: milliseconds + ms) }

    /// The next whole multiple of `period` seconds strictly after this instant.
    public func nextBoundary(every period: Int64) -> Instant {
        let s = seconds
        let next = (s - ((s % period) + period) % period) + period
        return Instant(seconds: next)
    }

    public var description: String { "\(milliseconds)ms" }
}
