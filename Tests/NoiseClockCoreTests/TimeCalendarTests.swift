import Testing
@testable import NoiseClockCore

@Suite struct TimeCalendarTests {
    @Test(arguments: [
        (CivilDate(year: 1970, month: 1, day: 1), Int64(0), Weekday.thu),
        (CivilDate(year: 2000, month: 2, day: 29), 11_016, .tue),
        (CivilDate(year: 2026, month: 11, day: 21), 20_778, .sat),
        (CivilDate(year: 1969, month: 12, day: 31), -1, .wed),
        (CivilDate(year: 2100, month: 3, day: 1), 47_541, .mon),
    ])
    func daysFromCivilAndBack(date: CivilDate, days: Int64, weekday: Weekday) {
        #expect(date.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days) == date)
        #expect(date.weekday == weekday)
    }

    @Test func everyDayOfFourCenturiesRoundTrips() {
        var previous = CivilDate(daysSinceEpoch: -146_097)
        for days in Int64(-146_096)...146_097 {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(date > previous)
            previous = date
        }
    }

    @Test(arguments: ["2026-11-21", "2028-02-29"])
    func parsesISODates(text: String) { #expect(CivilDate(iso: text)?.description == text) }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-1-01", "26-11-21", "2026-11-21T00", "", "2026-00-10", "2026-04-31", "２０２６-11-21"])
    func refusesBadISODates(text: String) { #expect(CivilDate(iso: text) == nil) }

    @Test(arguments: [(3600, "+01:00"), (-14400, "-04:00"), (20700, "+05:45"), (0, "+00:00"), (-34200, "-09:30")])
    func offsetTexts(offset: Int, text: String) { #expect(ISO8601.offsetText(offset) == text) }

    // POSIX rules alone (no TZif): (rule, UTC seconds, expected offset)
    @Test(arguments: [
        ("CET-1CEST,M3.5.0,M10.5.0/3", Int64(1_774_745_999), 3600),
        ("CET-1CEST,M3.5.0,M10.5.0/3", 1_774_746_000, 7200),
        ("EST5EDT,M3.2.0,M11.1.0", 1_772_953_200, -14400), // 2026-03-08T07:00Z
        ("EST5EDT,M3.2.0,M11.1.0", 1_772_953_199, -18000),
        ("EST5EDT", 1_772_953_200, -14400), // US default rules
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1_775_314_799, 39600), // 2026-04-04T14:59:59Z
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1_775_314_800, 37800),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1_791_041_400, 39600), // 2026-10-03T15:30Z
        ("<+0545>-5:45", 0, 20700),
        ("JST-9", 1_790_955_000, 32400),
        ("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", 1_784_000_000, -7200), // America/Nuuk (v3 negative times), July
        ("EST5EDT,0/0,J365/25", 1_784_000_000, -14400), // all-year DST
        ("XXX3YYY,J60/2,J300/2", 1_771_000_000, -10800), // February: before J60
    ])
    func posixRules(rule: String, seconds: Int64, offset: Int) throws {
        #expect(try PosixTZRule(rule).offset(at: seconds) == offset)
    }

    @Test(arguments: ["", "C", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "<+05", "CET-1CEST,M3.5.0,M10.5.0/3x"])
    func refusesBadPosixRules(rule: String) {
        #expect(throws: PosixTZRule.ParseError.self) { try PosixTZRule(rule) }
    }

    @Test func nameWithoutOffsetIsRefused() {
        #expect(throws: PosixTZRule.ParseError.self) { try PosixTZRule("CET") }
    }
}
