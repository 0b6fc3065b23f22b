import Testing
import NoiseClockCore
import NoiseClockPlatform

/// Offsets and wall-clock readings of real zones from /usr/share/zoneinfo, including both 2026
/// DST nights and years past 2037 (where only the TZif footer rule applies).
@Suite struct ZoneRulesRealZoneTests {
    static func zone(_ name: String) throws -> ZoneRules { try ZoneLoader.load(name) }

    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Instant {
        let days = CivilDate(year: y, month: mo, day: d).daysSinceEpoch
        return Instant(seconds: days * 86_400 + Int64(h * 3600 + mi * 60 + s))
    }

    // (zone, UTC instant, expected offset, expected ISO text)
    @Test(arguments: [
        ("Europe/Berlin", utc(2026, 3, 29, 0, 59, 59), 3600, "2026-03-29T01:59:59+01:00"),
        ("Europe/Berlin", utc(2026, 3, 29, 1, 0), 7200, "2026-03-29T03:00:00+02:00"),
        ("Europe/Berlin", utc(2026, 10, 25, 0, 59, 59), 7200, "2026-10-25T02:59:59+02:00"),
        ("Europe/Berlin", utc(2026, 10, 25, 1, 0), 3600, "2026-10-25T02:00:00+01:00"),
        ("Europe/Berlin", utc(2026, 11, 21, 6, 5), 3600, "2026-11-21T07:05:00+01:00"),
        ("Europe/Berlin", utc(2040, 3, 25, 0, 59), 3600, "2040-03-25T01:59:00+01:00"),
        ("Europe/Berlin", utc(2040, 3, 25, 1, 0), 7200, "2040-03-25T03:00:00+02:00"),
        ("Europe/Berlin", utc(2040, 10, 28, 1, 0), 3600, "2040-10-28T02:00:00+01:00"),
        ("Europe/Berlin", utc(2100, 10, 31, 0, 30), 7200, "2100-10-31T02:30:00+02:00"),
        ("America/New_York", utc(2026, 3, 8, 6, 59), -18000, "2026-03-08T01:59:00-05:00"),
        ("America/New_York", utc(2026, 3, 8, 7, 0), -14400, "2026-03-08T03:00:00-04:00"),
        ("America/New_York", utc(2026, 11, 1, 5, 59), -14400, "2026-11-01T01:59:00-04:00"),
        ("America/New_York", utc(2026, 11, 1, 6, 0), -18000, "2026-11-01T01:00:00-05:00"),
        ("America/New_York", utc(2040, 3, 11, 7, 0), -14400, "2040-03-11T03:00:00-04:00"),
        ("America/New_York", utc(2040, 11, 4, 5, 59), -14400, "2040-11-04T01:59:00-04:00"),
        ("Australia/Lord_Howe", utc(2026, 4, 4, 14, 59), 39600, "2026-04-05T01:59:00+11:00"),
        ("Australia/Lord_Howe", utc(2026, 4, 4, 15, 0), 37800, "2026-04-05T01:30:00+10:30"),
        ("Australia/Lord_Howe", utc(2026, 10, 3, 15, 29), 37800, "2026-10-04T01:59:00+10:30"),
        ("Australia/Lord_Howe", utc(2026, 10, 3, 15, 30), 39600, "2026-10-04T02:30:00+11:00"),
        ("Australia/Lord_Howe", utc(2040, 3, 31, 15, 0), 37800, "2040-04-01T01:30:00+10:30"),
        ("Australia/Lord_Howe", utc(2040, 10, 6, 15, 30), 39600, "2040-10-07T02:30:00+11:00"),
        ("Australia/Lord_Howe", utc(2041, 1, 1, 0, 0), 39600, "2041-01-01T11:00:00+11:00"),
        ("Asia/Kathmandu", utc(2026, 11, 21, 6, 5), 20700, "2026-11-21T11:50:00+05:45"),
        ("Asia/Kathmandu", utc(2050, 6, 1, 0, 0), 20700, "2050-06-01T05:45:00+05:45"),
        ("Asia/Tokyo", utc(2026, 3, 29, 1, 0), 32400, "2026-03-29T10:00:00+09:00"),
        ("Asia/Tokyo", utc(2060, 7, 1, 15, 0), 32400, "2060-07-02T00:00:00+09:00"),
        ("UTC", utc(2026, 11, 21, 6, 5), 0, "2026-11-21T06:05:00+00:00"),
    ])
    func offsetsAndISOText(name: String, instant: Instant, offset: Int, iso: String) throws {
        let zone = try Self.zone(name)
        #expect(zone.offset(at: instant.seconds) == offset)
        #expect(ISO8601.string(instant, in: zone) == iso)
    }

    @Test func localReadingCarriesTheWeekday() throws {
        let local = try Self.zone("Europe/Berlin").local(at: Self.utc(2026, 11, 21, 6, 5, 9))
        #expect(local == LocalDateTime(year: 2026, month: 11, day: 21, hour: 7, minute: 5, second: 9))
        #expect(local.weekday == .sat)
    }

    // (zone, wall reading, expected resolution as ISO texts: [unique] / ["gap", after] / [first, second])
    @Test(arguments: [
        ("Europe/Berlin", LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30), ["gap", "2026-03-29T03:00:00+02:00"]),
        ("Europe/Berlin", LocalDateTime(year: 2026, month: 3, day: 29, hour: 3, minute: 0), ["2026-03-29T03:00:00+02:00"]),
        ("Europe/Berlin", LocalDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30),
         ["2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00"]),
        ("Europe/Berlin", LocalDateTime(year: 2040, month: 3, day: 25, hour: 2, minute: 0), ["gap", "2040-03-25T03:00:00+02:00"]),
        ("Europe/Berlin", LocalDateTime(year: 2040, month: 10, day: 28, hour: 2, minute: 59),
         ["2040-10-28T02:59:00+02:00", "2040-10-28T02:59:00+01:00"]),
        ("America/New_York", LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 15), ["gap", "2026-03-08T03:00:00-04:00"]),
        ("America/New_York", LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30),
         ["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"]),
        ("Australia/Lord_Howe", LocalDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 10), ["gap", "2026-10-04T02:30:00+11:00"]),
        ("Australia/Lord_Howe", LocalDateTime(year: 2026, month: 4, day: 5, hour: 1, minute: 45),
         ["2026-04-05T01:45:00+11:00", "2026-04-05T01:45:00+10:30"]),
        ("Australia/Lord_Howe", LocalDateTime(year: 2026, month: 4, day: 5, hour: 2, minute: 0), ["2026-04-05T02:00:00+10:30"]),
        ("Asia/Kathmandu", LocalDateTime(year: 2026, month: 11, day: 21, hour: 7, minute: 5), ["2026-11-21T07:05:00+05:45"]),
        ("Asia/Tokyo", LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30), ["2026-03-29T02:30:00+09:00"]),
    ])
    func resolvesWallReadings(name: String, local: LocalDateTime, expected: [String]) throws {
        let zone = try Self.zone(name)
        let texts: [String]
        switch zone.resolve(local) {
        case .unique(let instant): texts = [ISO8601.string(instant, in: zone)]
        case .gap(let after): texts = ["gap", ISO8601.string(after, in: zone)]
        case .overlap(let first, let second): texts = [ISO8601.string(first, in: zone), ISO8601.string(second, in: zone)]
        }
        #expect(texts == expected)
    }

    @Test func localAndResolveRoundTripEveryHalfHourOf2026InBerlin() throws {
        let zone = try Self.zone("Europe/Berlin")
        var instant = Self.utc(2026, 1, 1, 0, 0)
        while instant < Self.utc(2027, 1, 1, 0, 0) {
            let local = zone.local(at: instant)
            switch zone.resolve(local) {
            case .unique(let back): #expect(back == instant)
            case .overlap(let first, let second): #expect(first == instant || second == instant)
            case .gap: Issue.record("\(local) came from an instant, so it cannot be in a gap")
            }
            instant = instant.adding(seconds: 1800)
        }
    }
}
