/// Decides which battery readings reach `~/battery` (retained, QoS 1).
///
/// A reading is published at start; when presence or charging status changes; when the level
/// changes; and whenever `interval` has passed since the last publication. One exception keeps
/// a level that wobbles on the edge of two values (80, 79, 80, 79 …) from flooding the broker:
/// a one-percent step back to the level published before the last one is a *flicker*, and is
/// published only once at least `flickerWindow` has passed since the last publication. A held-back
/// flicker is not lost: offered again later (the node polls), it goes out once the window is over.
public struct BatteryPublisher: Sendable, Equatable {
    public let interval: Int64
    public let flickerWindow: Int64

    public private(set) var lastPublished: BatteryReading?
    public private(set) var lastPublishedAt: Instant?
    /// The level published before `lastPublished`'s, if the last publication changed the level.
    private var previousLevel: Int?

    /// - Parameters:
    ///   - intervalSeconds: `battery.interval_seconds`: re-publish at least this often (≥ 1).
    ///   - flickerWindowSeconds: at most one flicker publication per this many seconds.
    public init(intervalSeconds: Int64, flickerWindowSeconds: Int64 = 60) {
        interval = max(intervalSeconds, 1)
        flickerWindow = flickerWindowSeconds
    }

    /// Offers the latest reading. Returns the publication to send now, or nil to send nothing.
    public mutating func offer(_ reading: BatteryReading, now: Instant) -> Publication? {
        guard shouldPublish(reading, now: now) else { return nil }
        if let lastPublished, lastPublished.level != reading.level {
            previousLevel = lastPublished.level
        }
        lastPublished = reading
        lastPublishedAt = now
        return Self.publication(reading)
    }

    /// The retained `~/battery` for a (re)connect: the last published reading.
    public var retained: [Publication] { lastPublished.map { [Self.publication($0)] } ?? [] }

    /// When the interval re-publication is due (nil before the first reading).
    public var nextDeadline: Instant? { lastPublishedAt?.adding(seconds: interval) }

    func shouldPublish(_ reading: BatteryReading, now: Instant) -> Bool {
        guard let last = lastPublished, let lastAt = lastPublishedAt else { return true }
        // A clock that went backwards cannot be measured against: start afresh.
        guard now >= lastAt else { return true }
        let elapsed = (now.milliseconds - lastAt.milliseconds) / 1000
        if elapsed >= interval { return true }
        if last.present != reading.present || last.status != reading.status { return true }
        guard let level = reading.level, let lastLevel = last.level, level != lastLevel else { return false }
        let isFlicker = abs(level - lastLevel) == 1 && level == previousLevel
        return !isFlicker || elapsed >= flickerWindow
    }

    public static func publication(_ reading: BatteryReading) -> Publication {
        Publication(topic: "battery", body: .json(reading.json), retain: true, qos: 1)
    }
}
