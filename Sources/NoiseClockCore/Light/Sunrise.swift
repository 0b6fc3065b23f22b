/// One sunrise: the light rising over an alarm's `light_minutes` before it rings. Commands go out
/// on a 15 s grid from its start, each gliding (`transition`) to where the curve is at the next
/// grid point, so a 10-minute sunrise is 40 commands: on at 1 %, then 39 glides, the last of
/// them reaching 100 % at the ring.
public struct Sunrise: Sendable, Equatable {
    /// The occurrence it belongs to: the alarm and the instant it rings.
    public struct Key: Sendable, Hashable {
        public var alarmID: String
        public var ring: Instant
    }

    public var key: Key
    public var start: Instant
    /// When the last command went out; nil before the first.
    public var lastSent: Instant?

    public static let stepSeconds: Int64 = 15

    public init(alarmID: String, start: Instant, ring: Instant) {
        key = Key(alarmID: alarmID, ring: ring)
        self.start = start
    }

    public var ring: Instant { key.ring }

    /// The curve's light at `instant`.
    public func level(at instant: Instant) -> LightLevel {
        let total = ring.milliseconds - start.milliseconds
        guard total > 0 else { return SunriseCurve.level(progress: 1) }
        return SunriseCurve.level(progress: Double(instant.milliseconds - start.milliseconds) / Double(total))
    }

    /// The next instant a command is due: the next grid point after the last command's, and a
    /// whole step after it (a node woken late, or whose clock jumped, keeps 15 s between commands).
    public var nextSend: Instant {
        guard let lastSent else { return start }
        return min(max(gridPoint(after: lastSent), lastSent.adding(seconds: Self.stepSeconds)), ring)
    }

    /// Whether a command already glides to full at the ring: nothing more is sent then.
    public private(set) var reachedFull = false

    /// The first grid point (start + k·15 s) after `instant`.
    func gridPoint(after instant: Instant) -> Instant {
        let step = Self.stepSeconds * 1000
        let k = (instant.milliseconds - start.milliseconds) / step + 1
        return Instant(milliseconds: start.milliseconds + max(0, k) * step)
    }

    /// The command due at `now`, if any: the level to go to and over how many seconds. The
    /// first command puts the light where the curve is now (after a restart inside the window,
    /// the brightness it should have reached), at once; each later one glides to where the curve
    /// will be when the next is due, so the light never waits and never jumps.
    public mutating func step(now: Instant) -> (level: LightLevel, transition: Int)? {
        guard now < ring, !reachedFull, now >= nextSend else { return nil }
        let first = lastSent == nil
        lastSent = now
        let target: Instant
        if first, ring.milliseconds - now.milliseconds >= Self.stepSeconds * 1000 {
            return (level(at: now), 0)
        } else if first {
            // Less than a step left: glide straight to full.
            target = ring
        } else {
            target = min(max(gridPoint(after: now), now.adding(seconds: Self.stepSeconds)), ring)
        }
        reachedFull = target == ring
        return (level(at: target), Int((target.milliseconds - now.milliseconds + 999) / 1000))
    }
}
