import Testing
@testable import NoiseClockAudio

/// A stream's budget (issue 37): at most 3 hops from the station's URL, an address met twice ends
/// the route, and every request without audio is followed by the back-off (1 s doubling to 5 s).
struct StreamBudgetTests {
    @Test func threeHopsAndNoMore() {
        let budget = StreamBudget(stationURL: "http://radio.example/a.m3u")
        #expect(budget.hop(to: "http://radio.example/b.m3u") == nil)
        #expect(budget.redirected(1) == nil)
        #expect(budget.redirectsLeft == 1)
        #expect(budget.hop(to: "http://radio.example/c.m3u") == nil)
        #expect(budget.redirectsLeft == 0)
        #expect(budget.hop(to: "http://radio.example/d.m3u") == .tooManyHops)
        budget.restartRoute()
        #expect(budget.redirected(4) == .tooManyHops)
    }

    @Test func aPlaylistNamingItselfDirectlyOrThroughOthersEndsTheRoute() {
        let direct = StreamBudget(stationURL: "http://radio.example/self.m3u")
        #expect(direct.hop(to: "HTTP://Radio.Example/self.m3u#again") == .namesItself("HTTP://Radio.Example/self.m3u#again"))
        let through = StreamBudget(stationURL: "http://radio.example/a.m3u")
        #expect(through.hop(to: "http://radio.example/b.m3u") == nil)
        #expect(through.hop(to: "http://radio.example/a.m3u") == .namesItself("http://radio.example/a.m3u"))
        // The path's case and the query count.
        #expect(through.hop(to: "http://radio.example/A.m3u?x=1") == nil)
        #expect(StreamBudget.key("http://radio.example") == StreamBudget.key("http://RADIO.example/"))
    }

    @Test func theBackOffDoublesToFiveSecondsAndAudioResetsIt() {
        let budget = StreamBudget(stationURL: "http://radio.example/live")
        #expect((0..<7).map { _ in budget.failed() } == [1, 2, 4, 5, 5, 5, 5])
        budget.heard()
        #expect(budget.failed() == 1)
        #expect(budget.failedRequests == 8)
        // Over a minute of failures the waits let at most 14 requests through (1+2+4, then one each
        // 5 s): ≤ 1 a second (the contract's bound), and a station is tried at least every 5 s.
        let fresh = StreamBudget(stationURL: "http://radio.example/live")
        var elapsed = 0.0, requests = 0
        while elapsed < 60 {
            requests += 1
            elapsed += fresh.failed()
        }
        #expect(requests <= 14)
    }
}
