import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Clock {
    /// Real fires on a minute boundary of the node's clock, moved to just before it: the fire, its
    /// events, the retained state and the schedule that moves on, in about a second.
    struct AlarmFireTests {
        @Test func firesWithinOneSecondOfTheMinuteAndMovesTheSchedule() async throws {
            let (rig, node) = try await AlarmRig.started("firenode")
            defer { rig.shutdown() }
            let root = rig.root(node)

            // Tomorrow morning on the node's clock: nothing rings before the test moves it there.
            let boundary = NodeTime.minute(hour: 6, minute: 45)
            try await node.setClock(to: boundary.addingTimeInterval(-30))
            let time = MinuteBoundary.clockTime(boundary)
            // Added in this order, so the one-time alarm names the shared ring.
            let once = try await rig.ok(node, "alarm/add", """
                {"time": "\(time)", "label": "Once", "sound": "beep", "volume": 55, "vibrate": true}
                """)
            let daily = try await rig.ok(node, "alarm/add", #"{"time": "\#(time)", "label": "Daily", "repeat": "daily", "sound": "none"}"#)
            let onceID = try #require(once["id"]?.stringValue)
            let dailyID = try #require(daily["id"]?.stringValue)
            #expect(once["next_trigger"] == .string(MinuteBoundary.iso(boundary)))

            let mark = rig.client.messages.count
            // One second before the minute, like a real clock getting there.
            try await node.setClock(to: boundary.addingTimeInterval(-1))
            try await rig.barrier(node)
            // Nothing rings early: no fire arrived before the minute on the node's clock.
            #expect(rig.messages(node, "alarm/fired", after: mark).allSatisfy { node.nodeTime(of: $0.at) >= boundary })

            let first = try await rig.client.waitFor("\(root)/alarm/fired", timeout: 10, after: mark)
            let lateness = node.nodeTime(of: first.at).timeIntervalSince(boundary)
            #expect(lateness >= 0 && lateness < 1, "fired \(lateness) s after the boundary")
            // Both alarms due at this minute are reported; the events, state and list follow.
            try await rig.client.waitFor("\(root)/alarm/fired", timeout: 5, after: mark, where: { $0.json?["id"] == .string(dailyID) })
            try await rig.client.waitFor("\(root)/alarms", timeout: 5, after: mark)
            try await rig.barrier(node)

            let fired = rig.messages(node, "alarm/fired", after: mark).compactMap(\.json)
            #expect(fired.count == 2)
            let event = try #require(fired.first { $0["id"] == .string(onceID) })
            let scheduled = MinuteBoundary.iso(boundary)
            #expect(event["event"] == "fired")
            #expect(event["label"] == "Once")
            #expect(event["sound"] == "beep")
            #expect(event["volume"] == 55)
            #expect(event["vibrate"] == true)
            #expect(event["scheduled"] == .string(scheduled))
            #expect(event["snooze_count"] == 0)
            #expect(event["test"] == false)
            let at = try #require(event["at"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
            #expect(abs(at.timeIntervalSince(boundary)) <= 1)
            #expect(fired.first { $0["id"] == .string(dailyID) }?["sound"] == "none")
            #expect(rig.messages(node, "alarm/fired", after: mark).allSatisfy { !$0.retain })

            let lifecycle = rig.messages(node, "alarm/event", after: mark).compactMap(\.json)
            let fires = lifecycle.filter { $0["event"] == "fired" }
            #expect(fires.count == 2)
            #expect(fires.allSatisfy { $0["scheduled"] == .string(scheduled) })
            // This node has no audio device: the alarm with a sound fails at once (the failsafe);
            // the one whose sound is none was never to be heard and says nothing more.
            let failures = lifecycle.filter { $0["event"] == "failed" }
            #expect(failures.map { $0["id"] } == [.string(onceID)])
            #expect(failures.first?["reason"] == "audio_unavailable")
            #expect(lifecycle.count == 3)

            let state = try await rig.retained(node, "alarm")
            #expect(state["state"] == "ringing")
            #expect(state["alarm_id"] == .string(onceID))
            #expect(state["label"] == "Once")
            #expect(state["snooze_until"] == .null)
            let since = try #require(state["since"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
            #expect(abs(since.timeIntervalSince(boundary)) <= 1)

            let list = try #require(try await rig.retained(node, "alarms").arrayValue)
            let onceAfter = try #require(list.first { $0["id"] == .string(onceID) })
            let dailyAfter = try #require(list.first { $0["id"] == .string(dailyID) })
            #expect(onceAfter["enabled"] == false)
            #expect(onceAfter["next_trigger"] == .null)
            #expect(dailyAfter["enabled"] == true)
            #expect(dailyAfter["next_trigger"] == .string(MinuteBoundary.iso(boundary.addingTimeInterval(86_400))))
            #expect(state["next"]?["id"] == .string(dailyID))

            // The fire is saved: the file agrees with what was published.
            let stored = try #require(node.alarmsDocument?["alarms"]?.arrayValue)
            #expect(stored.first { $0["id"] == .string(onceID) }?["enabled"] == false)
            #expect(node.alarmsDocument?["ring"]?["phase"] == "ringing")

            // One fire per occurrence: nothing more within the next seconds (the clock moved on by
            // three, a re-planning included).
            try await node.setClock(to: boundary.addingTimeInterval(3))
            try await rig.barrier(node)
            #expect(rig.messages(node, "alarm/fired", after: mark).count == 2)
        }
    }
}
