import Testing
@testable import NoiseClockCore

@Suite struct AlarmScheduleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var zone: String
        var alarm: String
        var now: String
        var expected: String?
        var testDescription: String { "\(zone) \(alarm) after \(now)" }
    }

    static func alarm(_ json: String) -> Alarm {
        let object = try! JSONParser().parse(json).objectValue!
        return try! Alarm.parseNew(object, newID: "a", catalog: testCatalog)
    }

    static let cases: [Case] = [
        // One-time: today if still ahead, else tomorrow.
        Case(zone: "Asia/Tokyo", alarm: #"{"time": "07:30"}"#, now: "2026-11-21T07:29:59+09:00", expected: "2026-11-21T07:30:00+09:00"),
        Case(zone: "Asia/Tokyo", alarm: #"{"time": "07:30"}"#, now: "2026-11-21T07:30:00+09:00", expected: "2026-11-22T07:30:00+09:00"),
        Case(zone: "Asia/Tokyo", alarm: #"{"time": "00:00"}"#, now: "2026-12-31T23:59:00+09:00", expected: "2027-01-01T00:00:00+09:00"),
        Case(zone: "Asia/Tokyo", alarm: #"{"time": "07:30", "enabled": false}"#, now: "2026-11-21T06:00:00+09:00", expected: nil),
        // Dated.
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "date": "2026-12-24"}"#, now: "2026-11-21T06:00:00+01:00",
            expected: "2026-12-24T07:00:00+01:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "date": "2026-07-24"}"#, now: "2026-06-21T06:00:00+02:00",
            expected: "2026-07-24T07:00:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "date": "2026-11-21"}"#, now: "2026-11-21T07:00:00+01:00", expected: nil),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "date": "2026-11-20"}"#, now: "2026-11-21T06:00:00+01:00", expected: nil),
        // Repeating.
        Case(zone: "Asia/Kathmandu", alarm: #"{"time": "07:00", "repeat": "weekdays"}"#, now: "2026-11-21T08:00:00+05:45",
            expected: "2026-11-23T07:00:00+05:45"),
        Case(zone: "Asia/Kathmandu", alarm: #"{"time": "07:00", "repeat": "weekdays"}"#, now: "2026-11-20T06:59:00+05:45",
            expected: "2026-11-20T07:00:00+05:45"),
        Case(zone: "Asia/Kathmandu", alarm: #"{"time": "07:00", "repeat": ["mon"]}"#, now: "2026-11-23T07:00:00+05:45",
            expected: "2026-11-30T07:00:00+05:45"),
        Case(zone: "Asia/Kathmandu", alarm: #"{"time": "23:59", "repeat": "weekends"}"#, now: "2026-11-23T00:00:00+05:45",
            expected: "2026-11-28T23:59:00+05:45"),
        Case(zone: "Asia/Tokyo", alarm: #"{"time": "06:15", "repeat": ["sun", "wed"]}"#, now: "2026-11-21T12:00:00+09:00",
            expected: "2026-11-22T06:15:00+09:00"),
        // skip_next skips the next occurrence only.
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "repeat": "weekdays", "skip_next": true}"#, now: "2026-11-20T06:00:00+01:00",
            expected: "2026-11-23T07:00:00+01:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "repeat": "daily", "skip_next": true}"#, now: "2026-11-21T08:00:00+01:00",
            expected: "2026-11-23T07:00:00+01:00"),
        // Berlin spring forward (2026-03-29, 02:00 → 03:00) and fall back (2026-10-25, 03:00 → 02:00).
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-03-28T23:00:00+01:00",
            expected: "2026-03-29T03:00:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:00"}"#, now: "2026-03-29T01:59:00+01:00", expected: "2026-03-29T03:00:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "03:00"}"#, now: "2026-03-29T01:59:00+01:00", expected: "2026-03-29T03:00:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-03-29T03:00:00+02:00",
            expected: "2026-03-30T02:30:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "repeat": "daily"}"#, now: "2026-03-28T07:00:00+01:00",
            expected: "2026-03-29T07:00:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-10-24T23:00:00+02:00",
            expected: "2026-10-25T02:30:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-10-25T02:30:00+02:00",
            expected: "2026-10-26T02:30:00+01:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-10-25T02:10:00+01:00",
            expected: "2026-10-26T02:30:00+01:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "07:00", "repeat": "daily"}"#, now: "2026-10-24T07:00:00+02:00",
            expected: "2026-10-25T07:00:00+01:00"),
        // Beyond 2037: only the TZif footer rule applies.
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2040-03-24T23:00:00+01:00",
            expected: "2040-03-25T03:00:00+02:00"),
        Case(zone: "Europe/Berlin", alarm: #"{"time": "02:30", "date": "2040-10-28"}"#, now: "2040-10-27T12:00:00+02:00",
            expected: "2040-10-28T02:30:00+02:00"),
        // New York (2026-03-08 02:00 → 03:00; 2026-11-01 02:00 → 01:00).
        Case(zone: "America/New_York", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-03-07T22:00:00-05:00",
            expected: "2026-03-08T03:00:00-04:00"),
        Case(zone: "America/New_York", alarm: #"{"time": "01:30", "repeat": "daily"}"#, now: "2026-10-31T22:00:00-04:00",
            expected: "2026-11-01T01:30:00-04:00"),
        Case(zone: "America/New_York", alarm: #"{"time": "01:30", "repeat": "daily"}"#, now: "2026-11-01T01:30:00-04:00",
            expected: "2026-11-02T01:30:00-05:00"),
        Case(zone: "America/New_York", alarm: #"{"time": "06:45", "repeat": ["sun"]}"#, now: "2026-03-01T07:00:00-05:00",
            expected: "2026-03-08T06:45:00-04:00"),
        Case(zone: "America/New_York", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2041-03-09T22:00:00-05:00",
            expected: "2041-03-10T03:00:00-04:00"),
        // Lord Howe: 30-minute shifts (2026-10-04 02:00 → 02:30; 2026-04-05 02:00 → 01:30).
        Case(zone: "Australia/Lord_Howe", alarm: #"{"time": "02:15", "repeat": "daily"}"#, now: "2026-10-03T22:00:00+10:30",
            expected: "2026-10-04T02:30:00+11:00"),
        Case(zone: "Australia/Lord_Howe", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-10-03T22:00:00+10:30",
            expected: "2026-10-04T02:30:00+11:00"),
        Case(zone: "Australia/Lord_Howe", alarm: #"{"time": "01:45", "repeat": "daily"}"#, now: "2026-04-04T22:00:00+11:00",
            expected: "2026-04-05T01:45:00+11:00"),
        Case(zone: "Australia/Lord_Howe", alarm: #"{"time": "01:45", "repeat": "daily"}"#, now: "2026-04-05T01:45:00+11:00",
            expected: "2026-04-06T01:45:00+10:30"),
        Case(zone: "Australia/Lord_Howe", alarm: #"{"time": "02:15"}"#, now: "2040-10-06T22:00:00+10:30", expected: "2040-10-07T02:30:00+11:00"),
        // Kathmandu +05:45 and Tokyo: no DST, one occurrence every day.
        Case(zone: "Asia/Kathmandu", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-03-28T23:00:00+05:45",
            expected: "2026-03-29T02:30:00+05:45"),
        Case(zone: "Asia/Tokyo", alarm: #"{"time": "02:30", "repeat": "daily"}"#, now: "2026-10-25T02:30:00+09:00",
            expected: "2026-10-26T02:30:00+09:00"),
    ]

    @Test(arguments: cases)
    func nextTrigger(_ c: Case) {
        let zone = AlarmTestZones.named(c.zone)
        let at = AlarmSchedule.nextTrigger(for: Self.alarm(c.alarm), after: instant(c.now), zone: zone)
        #expect(at.map { ISO8601.string($0, in: zone) } == c.expected)
    }

    /// Every daily occurrence over two years in each zone: one per local day, at the set time
    /// except on gap nights, strictly increasing.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Asia/Tokyo"])
    func dailyOccurrencesAreOnePerDay(zoneName: String) {
        let zone = AlarmTestZones.named(zoneName)
        for time in ["02:30", "07:00", "00:00", "23:59"] {
            let alarm = Self.alarm(#"{"time": "\#(time)", "repeat": "daily"}"#)
            var at = instant("2026-01-01T12:00:00+00:00")
            var previousDate: CivilDate?
            for _ in 0..<730 {
                guard let next = AlarmSchedule.occurrence(of: alarm, after: at, zone: zone) else {
                    Issue.record("no occurrence after \(at)")
                    return
                }
                #expect(next > at)
                let local = zone.local(at: next)
                if let previousDate { #expect(local.date == previousDate.adding(days: 1), "\(zoneName) \(time) \(local)") }
                if case .unique = zone.resolve(LocalDateTime(date: local.date, hour: alarm.time.hour, minute: alarm.time.minute)) {
                    #expect(local.hour == alarm.time.hour && local.minute == alarm.time.minute)
                }
                previousDate = local.date
                at = next
            }
        }
    }
}
