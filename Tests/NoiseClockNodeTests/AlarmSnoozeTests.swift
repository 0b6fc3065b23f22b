import Foundation
import NoiseClockCore
import Testing

/// The ring cycle on a real node. Snoozes last 5–20 minutes, so the refire is shown without
/// waiting: a snoozed ring survives kill -9, and with its saved end moved close it rings again on
/// time. The real five-minute wait runs with NOISECLOCK_SLOW_TESTS=1.
@Suite(.serialized) struct AlarmSnoozeTests {
    @Test func testRingSnoozeAndDismiss() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let node = try rig.makeNode()
        try await rig.start(node)
        let root = rig.root(node)
        let alarm = try await rig.ok(node, "alarm/add", #"{"id": "nap", "time": "04:00", "repeat": "daily", "label": "Nap", "snooze_minutes": 7}"#)
        let plannedTrigger = try #require(alarm["next_trigger"]?.stringValue)

        var mark = rig.client.messages.count
        let ringing = try await rig.ok(node, "alarm/test", "nap")
        #expect(ringing["state"] == "ringing")
        #expect(ringing["alarm_id"] == "nap")
        let fired = try #require(try await rig.client.waitFor("\(root)/alarm/fired", after: mark).json)
        #expect(fired["id"] == "nap" && fired["test"] == true && fired["snooze_count"] == 0)
        let firedEvent = try await rig.client.waitFor("\(root)/alarm/event", after: mark)
        #expect(firedEvent.json?["event"] == "fired")

        // Snooze with the alarm's own length, then with explicit ones (each counts from now).
        for (payload, minutes) in [("", 7), (#"{"minutes": 5}"#, 5), ("10", 10)] {
            mark = rig.client.messages.count
            let sent = Date()
            let state = try await rig.ok(node, "alarm/snooze", payload)
            #expect(state["state"] == "snoozed")
            let until = try #require(state["snooze_until"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
            #expect(abs(until.timeIntervalSince(sent) - Double(minutes * 60)) < 2, "snooze \(payload): until \(until), sent \(sent)")
            let event = try #require(try await rig.client.waitFor("\(root)/alarm/event", after: mark).json)
            #expect(event["event"] == "snoozed" && event["id"] == "nap" && event["test"] == true)
            // Snoozing again while snoozed is not a new ring: the count stays 1.
            #expect(event["snooze_count"] == 1)
            let retained = try await rig.retained(node, "alarm")
            #expect(retained["state"] == "snoozed" && retained["snooze_until"] == state["snooze_until"])
        }

        mark = rig.client.messages.count
        let idle = try await rig.ok(node, "alarm/dismiss", "")
        #expect(idle["state"] == "idle" && idle["snooze_until"] == .null)
        let dismissed = try #require(try await rig.client.waitFor("\(root)/alarm/event", after: mark).json)
        #expect(dismissed["event"] == "dismissed" && dismissed["id"] == "nap" && dismissed["snooze_count"] == 1)
        let state = try await rig.retained(node, "alarm")
        #expect(state["state"] == "idle")
        // A test ring does not move the schedule.
        #expect(state["next"]?["at"] == .string(plannedTrigger))
        let list = try await rig.retained(node, "alarms")
        #expect(list.arrayValue?.first?["next_trigger"] == .string(plannedTrigger))
        #expect(rig.client.messages(on: "\(root)/alarm/fired").count == 1)
    }

    @Test func snoozedRingSurvivesKill9AndRingsAgainWhenTheSnoozeEnds() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let node = try rig.makeNode()
        try await rig.start(node)
        let root = rig.root(node)
        try await rig.ok(node, "alarm/add", #"{"id": "nap", "time": "04:00", "repeat": "daily", "snooze_minutes": 5}"#)
        try await rig.ok(node, "alarm/test", "nap")
        let snoozed = try await rig.ok(node, "alarm/snooze", "")
        node.killHard()

        try await rig.start(node)
        let restored = try await rig.retained(node, "alarm")
        #expect(restored["state"] == "snoozed")
        #expect(restored["snooze_until"] == snoozed["snooze_until"])
        node.killHard()

        // Stand-in for five minutes passing while down: the saved snooze now ends in 5 s.
        let end = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 5)
        var document = try #require(node.alarmsDocument?.objectValue)
        var ring = try #require(document["ring"]?.objectValue)
        #expect(ring["phase"] == "snoozed")
        ring["snooze_until"] = .int(Int64(end.timeIntervalSince1970) * 1000)
        document["ring"] = .object(ring)
        try JSONValue.object(document).serialized.write(to: node.alarmsFile, atomically: true, encoding: .utf8)

        let mark = rig.client.messages.count
        try await rig.start(node)
        #expect(rig.messages(node, "alarm/fired", after: mark).isEmpty, "rang before the snooze ended")
        let again = try await rig.client.waitFor("\(root)/alarm/fired", timeout: 10, after: mark)
        let lateness = again.at.timeIntervalSince(end)
        #expect(lateness >= 0 && lateness < 1, "rang \(lateness) s after the snooze ended")
        #expect(again.json?["id"] == "nap" && again.json?["snooze_count"] == 1)
        let state = try await rig.retained(node, "alarm")
        #expect(state["state"] == "ringing" && state["since"] == .string(MinuteBoundary.iso(end)))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["NOISECLOCK_SLOW_TESTS"] == "1"))
    func snoozeRingsAgainAfterFiveRealMinutes() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let node = try rig.makeNode()
        try await rig.start(node)
        try await rig.ok(node, "alarm/add", #"{"id": "nap", "time": "04:00", "repeat": "daily", "ring_minutes": 15}"#)
        try await rig.ok(node, "alarm/test", "nap")
        let state = try await rig.ok(node, "alarm/snooze", "5")
        let until = try #require(state["snooze_until"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
        let mark = rig.client.messages.count
        try await MinuteBoundary.sleep(until: until.addingTimeInterval(-2))
        #expect(rig.messages(node, "alarm/fired", after: mark).isEmpty)
        let again = try await rig.client.waitFor("\(rig.root(node))/alarm/fired", timeout: 10, after: mark)
        // snooze_until is shown to the second; the node keeps milliseconds.
        let lateness = again.at.timeIntervalSince(until)
        #expect(lateness >= 0 && lateness < 2, "rang \(lateness) s after \(until)")
        #expect(again.json?["snooze_count"] == 1)
    }
}
