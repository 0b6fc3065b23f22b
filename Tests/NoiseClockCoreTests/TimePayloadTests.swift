import Testing
@testable import NoiseClockCore

@Suite struct TimePayloadTests {
    static let berlin = try! ZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")
    static let seoul = ZoneRules(identifier: "Asia/Seoul", fixedOffset: 9 * 3600)

    static func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, offset: Int) -> Instant {
        let days = CivilDate(year: y, month: mo, day: d).daysSinceEpoch
        return Instant(seconds: days * 86_400 + Int64(h * 3600 + mi * 60 + s - offset))
    }

    @Test func matchesTheContractExample() {
        let payload = TimePayload.make(now: Self.at(2026, 11, 21, 7, 5, 0, offset: 3600), zone: Self.berlin, locale: .en,
                                       use24Hour: false, showSeconds: false, showAmPm: true)
        #expect(payload.serialized == #"{"iso":"2026-11-21T07:05:00+01:00","epoch":1795241100,"display":"7:05","ampm":"AM","date":"21 November Sat","#
            + #""weekday":"sat","timezone":"Europe/Berlin"}"#)
    }

    // (local hour, minute, second, 24h, seconds, ampm, locale, display, ampm)
    @Test(arguments: [
        (7, 5, 9, true, false, true, NodeLocale.en, "07:05", nil as String?),
        (7, 5, 9, true, true, true, .en, "07:05:09", nil),
        (7, 5, 9, false, false, true, .en, "7:05", "AM"),
        (7, 5, 9, false, true, true, .en, "7:05:09", "AM"),
        (7, 5, 9, false, false, false, .en, "7:05", nil),
        (0, 0, 0, false, false, true, .en, "12:00", "AM"),
        (0, 30, 0, true, false, true, .en, "00:30", nil),
        (12, 0, 0, false, false, true, .en, "12:00", "PM"),
        (12, 59, 59, false, true, true, .en, "12:59:59", "PM"),
        (13, 1, 0, false, false, true, .en, "1:01", "PM"),
        (23, 59, 0, true, false, true, .en, "23:59", nil),
        (23, 59, 0, false, false, true, .en, "11:59", "PM"),
        (9, 0, 0, false, false, true, .ko, "9:00", "오전"),
        (21, 0, 0, false, false, true, .ko, "9:00", "오후"),
        (21, 0, 0, true, false, true, .ko, "21:00", nil),
    ])
    func displayAndAmPm(hour: Int, minute: Int, second: Int, use24: Bool, seconds: Bool, showAmPm: Bool,
                        locale: NodeLocale, display: String, ampm: String?) {
        let now = Self.at(2026, 11, 21, hour, minute, second, offset: 9 * 3600)
        let payload = TimePayload.make(now: now, zone: Self.seoul, locale: locale, use24Hour: use24, showSeconds: seconds, showAmPm: showAmPm)
        #expect(payload["display"] == .string(display))
        #expect(payload["ampm"] == .optional(ampm))
    }

    // (date, locale, expected date text, weekday code)
    @Test(arguments: [
        (CivilDate(year: 2026, month: 11, day: 21), NodeLocale.en, "21 November Sat", "sat"),
        (CivilDate(year: 2026, month: 11, day: 21), .ko, "21 11월 토", "sat"),
        (CivilDate(year: 2026, month: 1, day: 5), .en, "5 January Mon", "mon"),
        (CivilDate(year: 2026, month: 1, day: 5), .ko, "5 1월 월", "mon"),
        (CivilDate(year: 2028, month: 2, day: 29), .en, "29 February Tue", "tue"),
        (CivilDate(year: 2026, month: 3, day: 29), .ko, "29 3월 일", "sun"),
        (CivilDate(year: 2026, month: 12, day: 31), .en, "31 December Thu", "thu"),
    ])
    func dates(date: CivilDate, locale: NodeLocale, text: String, weekday: String) {
        let now = Self.at(date.year, date.month, date.day, 12, 0, 0, offset: 9 * 3600)
        let payload = TimePayload.make(now: now, zone: Self.seoul, locale: locale, use24Hour: true, showSeconds: false, showAmPm: false)
        #expect(payload["date"] == .string(text))
        #expect(payload["weekday"] == .string(weekday))
        #expect(payload["timezone"] == "Asia/Seoul")
    }

    @Test func keysComeInContractOrder() {
        let payload = TimePayload.make(now: Instant(seconds: 0), zone: .utc, locale: .en, use24Hour: true, showSeconds: false, showAmPm: true)
        #expect(payload.objectValue?.keys == ["iso", "epoch", "display", "ampm", "date", "weekday", "timezone"])
        #expect(payload["iso"] == "1970-01-01T00:00:00+00:00")
    }

    @Test func dstDayInBerlinFollowsTheRule() {
        // 2026-03-29 00:59:59Z is 01:59:59 CET, one second later 03:00 CEST.
        let before = TimePayload.make(now: Instant(seconds: 1_774_745_999), zone: Self.berlin, locale: .en,
                                      use24Hour: true, showSeconds: true, showAmPm: false)
        let after = TimePayload.make(now: Instant(seconds: 1_774_746_000), zone: Self.berlin, locale: .en,
                                     use24Hour: true, showSeconds: true, showAmPm: false)
        #expect(before["iso"] == "2026-03-29T01:59:59+01:00")
        #expect(before["display"] == "01:59:59")
        #expect(after["iso"] == "2026-03-29T03:00:00+02:00")
        #expect(after["display"] == "03:00:00")
    }
}
