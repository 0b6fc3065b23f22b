import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Clock {
    /// The ring cycle on a real node. Snoozes last 5–20 minutes: the tests move the node's clock to
    /// just before the snooze ends instead of waiting for it.
    struct AlarmSnoozeTests {
        @Test func testRingSnoozeAndDismiss() async throws {
            let (rig, node) = try await AlarmRig.started()
            defer { rig.shutdown() }
            let root = rig.root(node)
            let alarm = try await rig.ok(node, "alarm/add",
                #"{"id": "nap", "time": "04:00", "repeat": "daily", "label": "Nap", "snooze_minutes": 7}"#)
            let plannedTrigger = try #require(alarm["next_trigger"]?.stringValue)

            var mark = rig.client.messages.count
            let ringing = try await rig.ok(node, "alarm/test", "nap")
            #expect(ringing["state"] == "ringing")
            #expect(ringing["alarm_id"] == "nap")
            let fired = try #require(try await rig.client.waitFor("\(root)/alarm/fired", after: mark).json)
            #expect(fired["id"] == "nap" && fired["test"] == true && fired["snooze_count"] == 0)
            // The readiness check of the alarm just added may publish its `at_risk` in between.
            let firedEvent = try await rig.client.waitFor("\(root)/alarm/event", after: mark, where: { $0.json?["event"] != "at_risk" })
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
            let (rig, node) = try await AlarmRig.started()
            defer { rig.shutdown() }
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

            // The saved snooze is moved to a whole second (the published end shows whole seconds), and
            // the node comes back on a clock half a second before it, as if the minutes had passed
            // while it was down.
            let end = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 300)
            var document = try #require(node.alarmsDocument?.objectValue)
            var ring = try #require(document["ring"]?.objectValue)
            #expect(ring["phase"] == "snoozed")
            ring["snooze_until"] = .int(Int64(end.timeIntervalSince1970) * 1000)
            document["ring"] = .object(ring)
            try JSONValue.object(document).serialized.write(to: node.alarmsFile, atomically: true, encoding: .utf8)

            try node.writeClock(to: end.addingTimeInterval(-0.5))
            let mark = rig.client.messages.count
            try await rig.start(node)
            #expect(rig.messages(node, "alarm/fired", after: mark).allSatisfy { node.nodeTime(of: $0.at) >= end }, "rang before the snooze ended")
            let again = try await rig.client.waitFor("\(root)/alarm/fired", timeout: 10, after: mark)
            let lateness = node.nodeTime(of: again.at).timeIntervalSince(end)
            #expect(lateness >= 0 && lateness < 1, "rang \(lateness) s after the snooze ended")
            #expect(again.json?["id"] == "nap" && again.json?["snooze_count"] == 1)
            // The event goes out before the retained state: wait until that is out too.
            try await rig.barrier(node)
            let state = try await rig.retained(node, "alarm")
            #expect(state["state"] == "ringing" && state["since"] == .string(MinuteBoundary.iso(end)))
        }

        /// Five minutes on the node's clock, of which the test waits the last two seconds.
        @Test func snoozeRingsAgainAfterFiveMinutes() async throws {
            let (rig, node) = try await AlarmRig.started()
            defer { rig.shutdown() }
            try await rig.ok(node, "alarm/add", #"{"id": "nap", "time": "04:00", "repeat": "daily", "ring_minutes": 15}"#)
            try await rig.ok(node, "alarm/test", "nap")
            let state = try await rig.ok(node, "alarm/snooze", "5")
            let until = try #require(state["snooze_until"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
            let mark = rig.client.messages.count
            try await node.setClock(to: until.addingTimeInterval(-2))
            try await rig.barrier(node)
            #expect(rig.messages(node, "alarm/fired", after: mark).allSatisfy { node.nodeTime(of: $0.at) >= until })
            let again = try await rig.client.waitFor("\(rig.root(node))/alarm/fired", timeout: 10, after: mark)
            // snooze_until is shown to the second; the node keeps milliseconds.
            let lateness = node.nodeTime(of: again.at).timeIntervalSince(until)
            #expect(lateness >= 0 && lateness < 2, "rang \(lateness) s after \(until)")
            #expect(again.json?["snooze_count"] == 1)
        }
    }
}
