import Foundation
import Glibc
import NoiseClockCore
import Testing

/// An alarm whose minute passes while the node is down (killed with -9 after the add was
/// acknowledged): back within `ring_minutes` it rings once, later it is reported `missed` once.
/// While a node is down its clock file is moved past the minute, as time passes for a stopped
/// node, so the test costs a few restarts instead of a minute and `ring_minutes`.
struct AlarmDowntimeTests {
    @Test func missedWhileDownRingsIfStillInTimeElseReportsMissedOnce() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let late = try rig.makeNode("latenode")
        let missed = try rig.makeNode("missnode")
        try await rig.start(late)
        try await rig.start(missed)

        // Tomorrow morning on both nodes' clocks; nothing is due before the test moves them there.
        let boundary = NodeTime.minute(hour: 7, minute: 10)
        try await late.setClock(to: boundary.addingTimeInterval(-30))
        try await missed.setClock(to: boundary.addingTimeInterval(-30))
        let time = MinuteBoundary.clockTime(boundary)
        // ring_minutes 2 for the late one, so it is still ringing (not timed out) when the test ends.
        let lateAlarm = #"{"time": "\#(time)", "label": "Down", "ring_minutes": 2}"#
        let missedAlarm = #"{"time": "\#(time)", "label": "Down", "ring_minutes": 1}"#
        let lateID = try #require(try await rig.ok(late, "alarm/add", lateAlarm)["id"]?.stringValue)
        let missedID = try #require(try await rig.ok(missed, "alarm/add", missedAlarm)["id"]?.stringValue)
        late.killHard()
        missed.killHard()
        let mark = rig.client.messages.count

        // Back 2 s after the minute: less than ring_minutes late, so it rings — once.
        try late.writeClock(to: boundary.addingTimeInterval(2))
        try await rig.start(late)
        let fire = try await rig.client.waitFor("\(rig.root(late))/alarm/fired", timeout: 5, after: mark)
        #expect(fire.json?["id"] == .string(lateID))
        #expect(fire.json?["scheduled"] == .string(MinuteBoundary.iso(boundary)))
        #expect(fire.json?["test"] == false)
        // The event goes out before the retained state: wait until that is out too.
        try await rig.barrier(late)
        let lateState = try await rig.retained(late, "alarm")
        #expect(lateState["state"] == "ringing")
        let lateList = try #require(try await rig.retained(late, "alarms").arrayValue)
        #expect(lateList.first?["enabled"] == false)

        // Back more than ring_minutes (1) after the minute: reported missed, not rung.
        try missed.writeClock(to: boundary.addingTimeInterval(62))
        try await rig.start(missed)
        // (Its readiness check may say `at_risk` first: these nodes have no sound device.)
        let report = try await rig.client.waitFor("\(rig.root(missed))/alarm/event", timeout: 5, after: mark, where: {
            $0.json?["event"] != "at_risk"
        })
        #expect(report.json?["event"] == "missed")
        #expect(report.json?["id"] == .string(missedID))
        #expect(report.json?["scheduled"] == .string(MinuteBoundary.iso(boundary)))
        try await rig.barrier(missed)
        let missedState = try await rig.retained(missed, "alarm")
        #expect(missedState["state"] == "idle")
        let missedList = try #require(try await rig.retained(missed, "alarms").arrayValue)
        #expect(missedList.first?["enabled"] == false)
        #expect(missedList.first?["next_trigger"] == .null)

        // A second restart reports nothing again: the handled occurrence was saved.
        missed.killHard()
        try await rig.start(missed)
        try await rig.barrier(missed)
        try await rig.barrier(late)
        #expect(rig.messages(late, "alarm/fired", after: mark).count == 1)
        // (These nodes have no audio device: the failsafe's `failed` follows the fire, and each start's
        // readiness check says `at_risk`; not counted here.)
        let lifecycle: @Sendable (TestClient.Received) -> JSONValue? = {
            guard let event = $0.json?["event"], !["failed", "at_risk", "ready"].contains(event.stringValue ?? "") else { return nil }
            return event
        }
        #expect(rig.messages(late, "alarm/event", after: mark).compactMap(lifecycle) == ["fired"])
        #expect(rig.messages(missed, "alarm/fired", after: mark).isEmpty)
        #expect(rig.messages(missed, "alarm/event", after: mark).compactMap(lifecycle) == ["missed"])
    }
}
