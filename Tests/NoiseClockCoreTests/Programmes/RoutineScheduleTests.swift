import Testing
@testable import NoiseClockCore

/// When routines start and end, on ordinary nights and DST nights in several zones: a start or
/// end in a skipped hour happens at the end of the gap, a repeated hour counts once, and a
/// duration is elapsed time.
@Suite struct RoutineScheduleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var zone: String
        var routine: String
        var after: String
        var start: String
        var end: String
        var testDescription: String { "\(zone) \(routine) after \(after)" }
    }

    static func routine(_ json: String) -> Routine {
        let object = try! JSONParser().parse(json).objectValue!
        return try! Routine.parseNew(object, newID: "r", catalog: ProgrammeHarness.catalog)
    }

    static let cases: [Case] = [
        // An end at or before the start is the next day's; an end equal to the start is a whole day.
        Case(zone: "Asia/Tokyo", routine: #"{"start": "22:30", "end": "06:45"}"#, after: "2026-11-21T12:00:00+09:00",
             start: "2026-11-21T22:30:00+09:00", end: "2026-11-22T06:45:00+09:00"),
        Case(zone: "Asia/Tokyo", routine: #"{"start": "22:30", "end": "22:30"}"#, after: "2026-11-21T12:00:00+09:00",
             start: "2026-11-21T22:30:00+09:00", end: "2026-11-22T22:30:00+09:00"),
        Case(zone: "Asia/Tokyo", routine: #"{"start": "13:00", "end": "14:30", "repeat": "weekends"}"#, after: "2026-11-23T12:00:00+09:00",
             start: "2026-11-28T13:00:00+09:00", end: "2026-11-28T14:30:00+09:00"),
        Case(zone: "Asia/Kathmandu", routine: #"{"start": "21:00"}"#, after: "2026-11-21T21:00:00+05:45",
             start: "2026-11-22T21:00:00+05:45", end: "2026-11-23T05:00:00+05:45"),
        // Berlin, spring forward (2026-03-29 02:00 → 03:00): a start in the gap begins at 03:00,
        // an end in the gap too; 8 hours are 8 elapsed hours.
        Case(zone: "Europe/Berlin", routine: #"{"start": "02:30", "end": "06:45"}"#, after: "2026-03-28T23:00:00+01:00",
             start: "2026-03-29T03:00:00+02:00", end: "2026-03-29T06:45:00+02:00"),
        Case(zone: "Europe/Berlin", routine: #"{"start": "22:30", "end": "02:15"}"#, after: "2026-03-28T12:00:00+01:00",
             start: "2026-03-28T22:30:00+01:00", end: "2026-03-29T03:00:00+02:00"),
        Case(zone: "Europe/Berlin", routine: #"{"start": "22:00", "duration_minutes": 480}"#, after: "2026-03-28T12:00:00+01:00",
             start: "2026-03-28T22:00:00+01:00", end: "2026-03-29T07:00:00+02:00"),
        // Berlin, fall back (2026-10-25 03:00 → 02:00): the repeated 02:30 starts once, at its first occurrence.
        Case(zone: "Europe/Berlin", routine: #"{"start": "02:30", "end": "06:00"}"#, after: "2026-10-24T23:00:00+02:00",
             start: "2026-10-25T02:30:00+02:00", end: "2026-10-25T06:00:00+01:00"),
        Case(zone: "Europe/Berlin", routine: #"{"start": "02:30", "end": "06:00"}"#, after: "2026-10-25T02:30:00+02:00",
             start: "2026-10-26T02:30:00+01:00", end: "2026-10-26T06:00:00+01:00"),
        Case(zone: "Europe/Berlin", routine: #"{"start": "01:00", "end": "02:30"}"#, after: "2026-10-24T23:00:00+02:00",
             start: "2026-10-25T01:00:00+02:00", end: "2026-10-25T02:30:00+02:00"),
        Case(zone: "Europe/Berlin", routine: #"{"start": "22:00", "duration_minutes": 480}"#, after: "2026-10-24T12:00:00+02:00",
             start: "2026-10-24T22:00:00+02:00", end: "2026-10-25T05:00:00+01:00"),
        // New York (2026-03-08 02:00 → 03:00; 2026-11-01 02:00 → 01:00).
        Case(zone: "America/New_York", routine: #"{"start": "02:15", "end": "07:00"}"#, after: "2026-03-07T22:00:00-05:00",
             start: "2026-03-08T03:00:00-04:00", end: "2026-03-08T07:00:00-04:00"),
        Case(zone: "America/New_York", routine: #"{"start": "23:00", "end": "01:30"}"#, after: "2026-10-31T12:00:00-04:00",
             start: "2026-10-31T23:00:00-04:00", end: "2026-11-01T01:30:00-04:00"),
        // Lord Howe: half-hour shifts (2026-10-04 02:00 → 02:30; 2026-04-05 02:00 → 01:30).
        Case(zone: "Australia/Lord_Howe", routine: #"{"start": "02:15", "end": "06:00"}"#, after: "2026-10-03T22:00:00+10:30",
             start: "2026-10-04T02:30:00+11:00", end: "2026-10-04T06:00:00+11:00"),
        Case(zone: "Australia/Lord_Howe", routine: #"{"start": "01:45", "end": "03:00"}"#, after: "2026-04-04T22:00:00+11:00",
             start: "2026-04-05T01:45:00+11:00", end: "2026-04-05T03:00:00+10:30"),
    ]

    @Test(arguments: cases)
    func startsAndEnds(_ c: Case) throws {
        let zone = AlarmTestZones.named(c.zone)
        let routine = Self.routine(c.routine)
        let start = try #require(RoutineSchedule.nextStart(of: routine, after: instant(c.after), zone: zone))
        #expect(ISO8601.string(start, in: zone) == c.start)
        #expect(ISO8601.string(RoutineSchedule.end(of: routine, startedAt: start, zone: zone), in: zone) == c.end)
    }

    /// A routine through a whole spring-forward night in Berlin on the core: it starts at the end
    /// of the gap, publishes the start once, and ends at the planned time.
    @Test func aSpringForwardNightOnTheCore() {
        var h = ProgrammeHarness(zone: AlarmTestZones.berlin, now: "2026-03-28T20:00:00+01:00")
        h.ok("routine/add", #"{"id": "night", "start": "02:30", "end": "06:45", "fade_in_seconds": 0}"#)
        #expect(h.retained("routines")?.arrayValue?.first?["next_start"] == "2026-03-29T03:00:00+02:00")
        h.run(until: "2026-03-29T02:59:59+02:00")
        #expect(h.take("routine/event") == [])
        h.run(until: "2026-03-29T03:00:00+02:00")
        #expect(h.take("routine/event") == ["started night"])
        #expect(h.noise["playing"] == true && h.noise["routine"] == "night")
        h.run(until: "2026-03-29T06:45:00+02:00")
        #expect(h.take("routine/event") == ["ended night"])
        #expect(h.noise["playing"] == false && h.noise["routine"] == .null)
        #expect(h.retained("routines")?.arrayValue?.first?["next_start"] == "2026-03-30T02:30:00+02:00")
    }

    /// A fall-back night in New York: 01:30 happens twice; the routine starts once.
    @Test func aFallBackNightStartsOnce() {
        var h = ProgrammeHarness(zone: AlarmTestZones.newYork, now: "2026-10-31T20:00:00-04:00")
        h.ok("routine/add", #"{"id": "late", "start": "01:30", "duration_minutes": 10}"#)
        h.run(until: "2026-11-01T03:00:00-05:00")
        #expect(h.take("routine/event") == ["started late", "ended late"])
    }
}
