import Foundation
import NoiseClockCore
import Testing

/// Holidays on a real node with its clock moved by the test: a skipped day and a pause pass
/// without a sound, `next_trigger`, `next` and `paused_until` say so, the pause survives a
/// restart and ends by itself at the start of its day.
@Suite struct AlarmPauseTests {
    static func day(_ date: Date) -> String { String(MinuteBoundary.iso(date).prefix(10)) }

    @Test func skippedDayAndPausePassSilentlyThenTheAlarmRingsAgain() async throws {
        let (rig, node) = try await AlarmRig.started("pausenode")
        defer { rig.shutdown() }
        let root = rig.root(node)
        let ring = NodeTime.minute(hour: 6, minute: 45)  // day D on the node's clock (UTC)
        let oneDay: TimeInterval = 86_400
        try await node.setClock(to: ring.addingTimeInterval(-30))
        let time = MinuteBoundary.clockTime(ring)

        // D is skipped (and a day long past is dropped): the next ring is D+1.
        let added = try await rig.ok(node, "alarm/add", """
            {"id": "work", "time": "\(time)", "repeat": "daily", "sound": "none", "skip_dates": ["\(Self.day(ring))", "2020-01-01"]}
            """)
        #expect(added["skip_dates"] == [.string(Self.day(ring))])
        #expect(added["next_trigger"] == .string(MinuteBoundary.iso(ring.addingTimeInterval(oneDay))))

        let mark = rig.client.messages.count
        try await node.setClock(to: ring.addingTimeInterval(5))
        try await rig.barrier(node)
        #expect(rig.messages(node, "alarm/fired", after: mark).isEmpty, "rang on a skipped day")

        // Pause until D+2: D+1 passes too; the state says until when, and `next` is D+2.
        let state = try await rig.ok(node, "alarms/pause", #"{"until": "\#(Self.day(ring.addingTimeInterval(2 * oneDay)))"}"#)
        #expect(state["paused_until"] == .string(Self.day(ring.addingTimeInterval(2 * oneDay))))
        #expect(state["next"]?["at"] == .string(MinuteBoundary.iso(ring.addingTimeInterval(2 * oneDay))))
        try await node.setClock(to: ring.addingTimeInterval(oneDay + 5))
        try await rig.barrier(node)
        #expect(rig.messages(node, "alarm/fired", after: mark).isEmpty, "rang while paused")

        // The pause is on disk: a restart keeps it.
        node.signal(SIGTERM)
        _ = node.waitForExit()
        try await rig.start(node)
        #expect(try await rig.retained(node, "alarm")["paused_until"] == .string(Self.day(ring.addingTimeInterval(2 * oneDay))))
        // The skipped day D is past: it has left the list.
        #expect(try await rig.retained(node, "alarms").arrayValue?.first?["skip_dates"] == [])

        // D+2: the pause ends at midnight by itself, and the alarm rings.
        let back = rig.client.messages.count
        try await node.setClock(to: ring.addingTimeInterval(2 * oneDay - 1))
        let fired = try await rig.client.waitFor("\(root)/alarm/fired", timeout: 10, after: back)
        #expect(fired.json?["scheduled"] == .string(MinuteBoundary.iso(ring.addingTimeInterval(2 * oneDay))))
        try await rig.barrier(node)
        #expect(rig.latest(node, "alarm")?["paused_until"] == .null)
    }

    @Test func resumeEndsThePauseAndBadDaysAreRefused() async throws {
        let (rig, node) = try await AlarmRig.started("resumenode")
        defer { rig.shutdown() }
        try await rig.ok(node, "alarm/add", #"{"id": "a", "time": "07:00", "repeat": "daily"}"#)
        let before = try #require(rig.latest(node, "alarm")?["next"]?["at"])
        let paused = try await rig.ok(node, "alarms/pause", "2099-12-31")
        #expect(paused["paused_until"] == "2099-12-31")
        #expect(paused["next"]?["at"]?.stringValue?.hasPrefix("2099-12-31T07:00") == true)
        let resumed = try await rig.ok(node, "alarms/resume", "")
        #expect(resumed["paused_until"] == .null)
        #expect(resumed["next"]?["at"] == before)
        for bad in ["2001-01-01", "soon", #"{"until": 5}"#] {
            let response = try await rig.command(node, "alarms/pause", bad)
            #expect(response["ok"] == false && response["error"]?["field"] == "until", "\(bad) → \(response.serialized)")
        }
    }
}
