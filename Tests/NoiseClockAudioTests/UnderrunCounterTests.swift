import Testing

@testable import NoiseClockAudio

/// `~/audio`'s underrun count is published when it changed, at most every 10 s (v1.4).
struct UnderrunCounterTests {
    @Test func aChangedCountIsDueAtOnceThenNotBeforeTenSeconds() {
        var counter = UnderrunCounter()
        #expect(counter.due(now: 100) == nil, "nothing counted, nothing to publish")
        #expect(counter.pendingWait(now: 100) == nil)
        counter.add(1)
        #expect(counter.due(now: 100) == 1, "the first underrun is published at once")
        counter.add(2)
        #expect(counter.due(now: 105) == nil, "5 s after the last publication: not yet")
        #expect(counter.pendingWait(now: 105) == 5)
        #expect(counter.due(now: 110) == 3, "10 s after it: the latest count")
        #expect(counter.due(now: 130) == nil, "unchanged: nothing")
        counter.add(0)
        #expect(counter.due(now: 140) == nil)
    }
}
