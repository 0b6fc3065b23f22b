import Testing
@testable import NoiseClockCore

/// `~/time` publication by the core, driven by an injected clock.
@Suite struct NodeCoreTimeTests {
    static let berlin = try! ZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")
    /// 2026-11-21 06:04:30 UTC (07:04:30 in Berlin).
    static let start = Instant(seconds: 1_795_241_070)

    func core() -> NodeCore {
        NodeCore(settings: NodeSettings(nodeID: "t", locale: .en, zone: Self.berlin), now: Self.start)
    }

    func times(_ outbox: [Publication]) -> [JSONValue] {
        outbox.filter { $0.topic == "time" }.compactMap { if case .json(let v) = $0.body { v } else { nil } }
    }

    @Test func publishesEachMinuteBoundaryWithTheBoundaryItself() {
        var core = core()
        var outbox: [Publication] = []
        core.advance(to: Self.start, outbox: &outbox)
        #expect(times(outbox).isEmpty)
        #expect(core.nextDeadline(after: Self.start) == Instant(seconds: 1_795_241_100))
        // Woken 37 ms late: the message still carries 07:05:00, not the wake-up time.
        core.advance(to: Instant(milliseconds: 1_795_241_100_037), outbox: &outbox)
        let published = times(outbox)
        #expect(published.count == 1)
        #expect(published.first?["epoch"] == .int(1_795_241_100))
        #expect(published.first?["display"] == "07:05")
        #expect(core.nextDeadline(after: Instant(milliseconds: 1_795_241_100_037)) == Instant(seconds: 1_795_241_160))
        // An hour of wake-ups: exactly one message per boundary, no drift.
        outbox = []
        for minute in 1...60 {
            core.advance(to: Instant(milliseconds: (1_795_241_100 + Int64(minute) * 60) * 1000 + 5), outbox: &outbox)
        }
        let epochs = times(outbox).compactMap { $0["epoch"]?.intValue }
        #expect(epochs == (1...60).map { 1_795_241_100 + $0 * 60 })
    }

    @Test func secondsCadenceFollowsTheStyleAndStopsCleanly() {
        var core = core()
        var outbox: [Publication] = []
        core.advance(to: Self.start, outbox: &outbox)
        let set = CommandMessage(topic: .style(.set), payload: .json(["show_seconds": true]))
        #expect(core.handle(set, now: Self.start.adding(milliseconds: 200), outbox: &outbox).ok)
        #expect(core.nextDeadline(after: Self.start.adding(milliseconds: 200)) == Self.start.adding(seconds: 1))
        outbox = []
        for s in 1...3 { core.advance(to: Self.start.adding(seconds: Int64(s)), outbox: &outbox) }
        #expect(times(outbox).compactMap { $0["display"]?.stringValue } == ["07:04:31", "07:04:32", "07:04:33"])
        // Seconds off at 07:04:33.5: nothing more until 07:05:00, and no stale per-second message.
        let off = CommandMessage(topic: .style(.set), payload: .json(["show_seconds": false]))
        outbox = []
        #expect(core.handle(off, now: Self.start.adding(milliseconds: 3500), outbox: &outbox).ok)
        core.advance(to: Self.start.adding(seconds: 4), outbox: &outbox)
        #expect(times(outbox).isEmpty)
        #expect(core.nextDeadline(after: Self.start.adding(seconds: 4)) == Instant(seconds: 1_795_241_100))
    }

    @Test func aBackwardClockJumpDoesNotSilenceTheClock() {
        var core = core()
        var outbox: [Publication] = []
        core.advance(to: Self.start, outbox: &outbox)
        let earlier = Self.start.adding(seconds: -3600)
        core.clockChanged(now: earlier, outbox: &outbox)
        #expect(core.nextDeadline(after: earlier) == earlier.nextBoundary(every: 60))
    }

    @Test func twelveHourDisplayFollowsTheStyleAtOnce() {
        var core = core()
        var outbox: [Publication] = []
        let set = CommandMessage(topic: .style(.set), payload: .json(["use_24_hour": false]))
        #expect(core.handle(set, now: Self.start, outbox: &outbox).ok)
        let payload = core.timePayload(at: Instant(seconds: 1_795_241_100))
        #expect(payload["display"] == "7:05")
        #expect(payload["ampm"] == "AM")
    }
}
