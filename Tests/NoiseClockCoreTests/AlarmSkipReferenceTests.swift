import Foundation
import Testing
@testable import NoiseClockCore

/// `next_trigger` with pauses, skipped days and skip_next, checked against an independent
/// reference: Python's `zoneinfo` over the system's tzdata (`reference` below), in zones
/// with DST nights of every kind, around those nights.
@Suite struct AlarmSkipReferenceTests {
    struct Case {
        var zone: String
        var hour: Int, minute: Int
        var days: [Weekday]  // empty: once
        var now: Instant
        var skipDates: [CivilDate]
        var pausedUntil: CivilDate?
        var skipNext: Bool

        var json: String {
            let pyDays = days.map { $0.rawValue - 1 }  // Python: Monday 0
            let fields: [String] = [
                "\"zone\": \"\(zone)\"", "\"hour\": \(hour)", "\"minute\": \(minute)", "\"days\": \(pyDays)",
                "\"now\": \(now.seconds)", "\"skip_dates\": [\(skipDates.map { "\"\($0)\"" }.joined(separator: ","))]",
                "\"paused_until\": \(pausedUntil.map { "\"\($0)\"" } ?? "null")", "\"skip_next\": \(skipNext)",
            ]
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }

    /// DST nights: Berlin (02:00→03:00, 03:00→02:00), New York, Lord Howe (half an hour),
    /// Santiago (at midnight: 00:00 is skipped), Tokyo (none).
    static let nights: [(zone: String, day: String)] = [
        ("Europe/Berlin", "2026-03-29"), ("Europe/Berlin", "2026-10-25"),
        ("America/New_York", "2026-03-08"), ("America/New_York", "2026-11-01"),
        ("Australia/Lord_Howe", "2026-04-05"), ("Australia/Lord_Howe", "2026-10-04"),
        ("America/Santiago", "2026-04-05"), ("America/Santiago", "2026-09-06"),
        ("Asia/Tokyo", "2026-11-22"),
    ]

    static func cases() -> [Case] {
        var random = SplitMix64(seed: 13)
        var cases: [Case] = []
        let times = [(0, 0), (0, 30), (1, 30), (2, 0), (2, 30), (3, 0), (7, 0), (23, 30)]
        let repeats: [[Weekday]] = [[], Weekday.allCases, [.mon, .tue, .wed, .thu, .fri], [.sun]]
        for night in nights {
            let zone = AlarmTestZones.named(night.zone)
            let day = CivilDate(iso: night.day)!
            for (hour, minute) in times {
                for days in repeats {
                    for variant in 0..<3 {
                        // "now": one to three days before the night, at a varying hour.
                        let before = day.adding(days: -1 - Int(random.next() % 3))
                        let now = AlarmSchedule.startOfDay(before, zone: zone).adding(seconds: Int64(random.next() % 86_400))
                        var skip: [CivilDate] = []
                        if variant >= 1 { skip = [day, day.adding(days: Int(random.next() % 3))] }
                        let pause: CivilDate? = variant == 2 ? day.adding(days: Int(random.next() % 2)) : nil
                        let skipNext = !days.isEmpty && random.next() % 2 == 0
                        cases.append(Case(zone: night.zone, hour: hour, minute: minute, days: days, now: now,
                                          skipDates: skip, pausedUntil: pause, skipNext: skipNext))
                    }
                }
            }
        }
        return cases
    }

    /// The node's answer: an alarms feature given the alarm and the pause through its commands.
    static func nodeAnswer(_ c: Case) throws -> Int64? {
        let zone = AlarmTestZones.named(c.zone)
        var h = AlarmHarness(zone: zone, now: "2000-01-01T00:00:00+00:00")
        h.now = c.now
        let time = "\(c.hour < 10 ? "0" : "")\(c.hour):\(c.minute < 10 ? "0" : "")\(c.minute)"
        let days = "[" + c.days.map { "\"\($0.code)\"" }.joined(separator: ",") + "]"
        let skip = "[" + c.skipDates.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let id = h.add(#"{"time": "\#(time)", "repeat": \#(days), "skip_dates": \#(skip), "skip_next": \#(c.skipNext)}"#)
        if let pause = c.pausedUntil { _ = try h.send(.pause, pause.description).get() }
        let trigger = h.feature.nextTrigger(of: try #require(h.feature.book[id]), zone: zone)
        return trigger?.seconds
    }

    @Test func nextTriggerMatchesPythonZoneinfo() throws {
        let cases = Self.cases()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.reference]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let text = cases.map(\.json).joined(separator: "\n") + "\n"
        // Write on another thread: the script answers as it reads, and both pipes have limits.
        let writer = Thread { input.fileHandleForWriting.write(Data(text.utf8)); try? input.fileHandleForWriting.close() }
        writer.start()
        let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        try #require(answers.count == cases.count)
        var mismatches: [String] = []
        for (c, answer) in zip(cases, answers) {
            let reference: Int64? = answer == "null" ? nil : Int64(answer)
            let node = try Self.nodeAnswer(c)
            if node != reference { mismatches.append("\(c.json): node \(node.map(String.init) ?? "nil"), python \(answer)") }
        }
        let report = mismatches.prefix(10).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) differ:\n\(report)")
        #expect(cases.count > 800)
    }

    /// The reference, in Python.
    static let reference = #"""
"""An independent reference for next_trigger with pauses, skip dates and skip_next: Python's
zoneinfo (the system's tzdata) instead of the node's own TZif reader. One JSON case per line on
stdin; one answer per line on stdout (epoch seconds, or null).

Rules, from docs/mqtt-api.md: a wall time skipped by DST rings at the first instant after the
gap; a repeated one at its first occurrence. Occurrences on a skip date (the local date of the
ring) or before the first instant of the pause's day pass; skip_next takes the first one left."""
import json
import sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

UTC = timezone.utc


def resolve(zone, day, hour, minute):
    wall = datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)
    first = wall.replace(fold=0).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == wall.replace(tzinfo=None):
        # Unique, or the first of two (fold=0 is the earlier in an overlap).
        return int(first.timestamp())
    # A gap: the first second with the new offset.
    low = int(wall.replace(fold=1).astimezone(UTC).timestamp())  # before the change
    high = int(first.timestamp())  # after it
    offset_low = datetime.fromtimestamp(low, UTC).astimezone(zone).utcoffset()
    while high - low > 1:
        mid = (low + high) // 2
        if datetime.fromtimestamp(mid, UTC).astimezone(zone).utcoffset() == offset_low:
            low = mid
        else:
            high = mid
    return high


def occurrences(zone, case, after):
    start = datetime.fromtimestamp(after, UTC).astimezone(zone).date() - timedelta(days=1)
    for offset in range(0, 800):
        day = start + timedelta(days=offset)
        if case["days"] and day.weekday() not in case["days"]:
            continue
        at = resolve(zone, day, case["hour"], case["minute"])
        if at > after:
            yield at


def next_trigger(case):
    zone = ZoneInfo(case["zone"])
    skip = {date.fromisoformat(d) for d in case["skip_dates"]}
    pause_end = None
    if case["paused_until"]:
        pause_end = resolve(zone, date.fromisoformat(case["paused_until"]), 0, 0)
    skip_next = case["skip_next"]
    for at in occurrences(zone, case, case["now"]):
        if pause_end is not None and at < pause_end:
            continue
        if datetime.fromtimestamp(at, UTC).astimezone(zone).date() in skip:
            continue
        if skip_next:
            skip_next = False
            continue
        return at
    return None


for line in sys.stdin:
    print(json.dumps(next_trigger(json.loads(line))), flush=True)
"""#
}
