/// One sunrise: the light rising over an alarm's `light_minutes` before it rings. Commands go out
/// on a 15 s grid from its start, each gliding (`transition`) to where the curve is at the next
/// grid point, so a 10-minute sunrise is 41 commands: on at 1 %, 39 glides, 100 % at the ring.
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

    /// The next instant a command is due (a grid point before the ring, at least a step after the
    /// last command), or the ring itself.
    public var nextSend: Instant {
        guard let lastSent else { return start }
        let step = Self.stepSeconds * 1000
        let earliest = lastSent.milliseconds + step
        let k = (earliest - start.milliseconds + step - 1) / step
        return min(Instant(milliseconds: start.milliseconds + k * step), ring)
    }

    /// The command due at `now`, if any: the level to go to and over how many seconds.
    /// The first command puts the light where the curve is now (after a restart inside the
    /// window, the brightness it should have reached), at once.
    public mutating func step(now: Instant) -> (level: LightLevel, transition: Int)? {
        guard now < ring, now >= nextSend else { return nil }
        defer { lastSent = now }
        guard lastSent != nil else {
            // Less than a step left: glide straight to full.
            if ring.milliseconds - now.milliseconds < Self.stepSeconds * 1000 {
                return (level(at: ring), Int((ring.milliseconds - now.milliseconds + 999) / 1000))
            }
            return (level(at: now), 0)
        }
        let target = min(now.adding(seconds: Self.stepSeconds), ring)
        return (level(at: target), Int((target.milliseconds - now.milliseconds + 999) / 1000))
    }
}
