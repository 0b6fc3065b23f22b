import Foundation
import NoiseClockCore
import Testing

/// Timers on a real node: a finished timer rings through the alarm ring cycle (`source: "timer"`),
/// snoozes and is dismissed; one that ended while the node was down is reported missed and silent.
struct TimerIntegrationTests {
    @Test func aTimerRingsSnoozesAndIsDismissed() async throws {
        let (rig, node) = try await AlarmRig.started("timernode")
        defer { rig.shutdown() }
        let root = rig.root(node)
        var mark = rig.client.messages.count
        let timer = try await rig.ok(node, "timer/start", #"{"preset": "nap", "label": "Nap"}"#)
        let id = try #require(timer["id"]?.stringValue)
        #expect(timer["seconds"] == 1200 && timer["sound"] == "chime")
        #expect(try await rig.client.waitFor("\(root)/timer/event", after: mark).json?["event"] == "started")
        #expect(try await rig.retained(node, "timers").arrayValue?.first?["id"] == .string(id))

        let end = try #require(timer["ends_at"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
        mark = rig.client.messages.count
        try await node.setClock(to: end.addingTimeInterval(-1))
        let fired = try await rig.client.waitFor("\(root)/alarm/fired", timeout: 10, after: mark)
        #expect(fired.json?["id"] == .string(id) && fired.json?["source"] == "timer" && fired.json?["label"] == "Nap")
        let finished = try #require(rig.messages(node, "timer/event", after: mark).first?.json)
        #expect(finished["event"] == "finished" && finished["missed"] == false)
        try await rig.barrier(node)
        let ringing = try await rig.retained(node, "alarm")
        #expect(ringing["state"] == "ringing" && ringing["alarm_id"] == .string(id) && ringing["source"] == "timer")
        #expect(try await rig.retained(node, "timers") == [])

        let snoozed = try await rig.ok(node, "alarm/snooze", "5")
        #expect(snoozed["state"] == "snoozed" && snoozed["source"] == "timer")
        mark = rig.client.messages.count
        try await rig.ok(node, "alarm/dismiss", "")
        let dismissed = try await rig.client.waitFor("\(root)/alarm/event", after: mark)
        #expect(dismissed.json?["event"] == "dismissed" && dismissed.json?["source"] == "timer")
        #expect(try await rig.retained(node, "alarm")["state"] == "idle")
    }

    @Test func aTimerThatEndedWhileTheNodeWasDownIsMissedAndSilent() async throws {
        let (rig, node) = try await AlarmRig.started("missedtimer")
        defer { rig.shutdown() }
        let root = rig.root(node)
        let short = try #require(try await rig.ok(node, "timer/start", "5")["id"]?.stringValue)
        let long = try #require(try await rig.ok(node, "timer/start", #"{"minutes": 90, "label": "Long"}"#)["id"]?.stringValue)
        node.killHard()

        try node.writeClock(to: node.now.addingTimeInterval(600))
        let mark = rig.client.messages.count
        try await rig.start(node)
        let missed = try await rig.client.waitFor("\(root)/timer/event", timeout: 10, after: mark)
        #expect(missed.json?["event"] == "finished" && missed.json?["id"] == .string(short) && missed.json?["missed"] == true)
        try await rig.barrier(node)
        #expect(rig.messages(node, "alarm/fired", after: mark).isEmpty, "a missed timer rang")
        #expect(try await rig.retained(node, "alarm")["state"] == "idle")
        // The other survived the restart with its absolute end.
        let running = try await rig.retained(node, "timers")
        #expect(running.arrayValue?.map { $0["id"] } == [.string(long)])
        #expect(rig.messages(node, "timer/event", after: mark).count == 1)
    }
}
