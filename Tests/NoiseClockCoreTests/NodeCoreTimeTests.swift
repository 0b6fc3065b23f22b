import Testing
@testable import NoiseClockCore

/// `~/time` publication as the style's cadence changes, with injected time.
@Suite struct NodeCoreTimeTests {
    let t0 = Instant(seconds: 1_763_705_100)  // 2025-11-21T06:05:00Z, a minute boundary

    func makeCore() -> NodeCore {
        NodeCore(settings: NodeSettings(nodeID: "t", locale: .en, zone: .utc), now: t0)
    }

    func setStyle(_ core: inout NodeCore, _ text: String, at now: Instant) throws {
        var outbox: [Publication] = []
        let message = CommandMessage(topic: .styleSet, payload: try CommandPayload.classify(Array(text.utf8)))
        #expect(core.handle(message, now: now, outbox: &outbox).ok)
    }

    /// The epochs of the `~/time` messages published while advancing to each instant in turn.
    func times(_ core: inout NodeCore, _ instants: [Instant]) -> [Int64] {
        var epochs: [Int64] = []
        for now in instants {
            var outbox: [Publication] = []
            core.advance(to: now, outbox: &outbox)
            for publication in outbox where publication.topic == "time" {
                if case .json(let json) = publication.body, let epoch = json["epoch"]?.intValue { epochs.append(Int64(epoch)) }
            }
        }
        return epochs
    }

    @Test func secondsOnThenOffGoesBackToMinuteBoundariesWithoutAStaleMessage() throws {
        var core = makeCore()
        _ = times(&core, [t0.adding(seconds: 10)])
        try setStyle(&core, #"{"show_seconds": true}"#, at: t0.adding(milliseconds: 10_200))
        let seconds = times(&core, [t0.adding(seconds: 11), t0.adding(seconds: 12)])
        #expect(seconds == [t0.seconds + 11, t0.seconds + 12])
        try setStyle(&core, #"{"show_seconds": false}"#, at: t0.adding(milliseconds: 12_500))
        // Woken at the old second deadline: nothing is due; the next message is the next minute.
        #expect(core.nextDeadline(after: t0.adding(milliseconds: 12_500)) == t0.adding(seconds: 60))
        let after = times(&core, [t0.adding(seconds: 13), t0.adding(seconds: 59), t0.adding(seconds: 60)])
        #expect(after == [t0.seconds + 60])
    }
}
