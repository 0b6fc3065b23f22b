/// Timers as a node feature: the running timers, the presets, and the timers that just finished
/// and should ring (the core hands those to the alarms' ring cycle in the same step).
public struct TimersFeature: Sendable, Equatable {
    public internal(set) var timers: [CountdownTimer] = []
    public internal(set) var presets: [TimerPreset] = TimerPreset.defaults
    public internal(set) var idCounter: UInt64 = 0
    /// Finished timers with a sound, waiting for the core to ring them (never persisted: the core
    /// takes them within the same advance).
    var toRing: [CountdownTimer] = []
    /// Set by a restore until the first advance: a timer that ended while the node was down is
    /// reported `missed` and does not ring.
    var justRestored = false

    public init() {}

    public func nextDeadline(context: FeatureContext) -> Instant? {
        timers.map(\.endsAt).min()
    }

    /// The soonest end among the running timers (Home Assistant's timestamp sensor).
    public var soonestEnd: Instant? { timers.map(\.endsAt).min() }

    public func retained(context: FeatureContext) -> [Publication] {
        [
            Publication(topic: "timers", body: .json(.array(timers.map { $0.json(zone: context.zone) })), retain: true, qos: 1),
            Publication(topic: "timer/presets", body: .json(.array(presets.map(\.json))), retain: true, qos: 1),
        ]
    }

    /// Finishes every timer whose end has come, in order of their ends.
    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {
        let missed = justRestored
        justRestored = false
        let done = timers.filter { $0.endsAt <= context.now }.sorted { ($0.endsAt, $0.id) < ($1.endsAt, $1.id) }
        guard !done.isEmpty else { return }
        timers.removeAll { $0.endsAt <= context.now }
        for timer in done {
            outbox.append(TimerEvent.finished.publication(timer, at: context.now, missed: missed, zone: context.zone))
            if !missed, timer.sound != "none" { toRing.append(timer) }
        }
    }

    /// The finished timers to ring, handed over once.
    mutating func takeRings() -> [CountdownTimer] {
        defer { toRing = [] }
        return toRing
    }

    mutating func makeID(now: Instant) -> String {
        while true {
            idCounter &+= 1
            let id = AlarmIDGenerator.uuid(now: now, counter: idCounter)
            if !timers.contains(where: { $0.id == id }) { return id }
        }
    }
}
