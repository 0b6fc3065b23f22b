import Foundation
import NoiseClockCore
import Testing

/// Routines on a real node over a real broker, on a clock the test moves: the start and the end
/// of the window, a manual override, and a restart inside the window.
struct RoutineIntegrationTests {
    @Test func aRoutineStartsAndEndsOnTheNodesClock() async throws {
        let (rig, node) = try await AlarmRig.started("routinenode")
        defer { rig.shutdown() }
        let start = NodeTime.minute(hour: 3, minute: 0)
        try await node.setClock(to: start.addingTimeInterval(-30))
        let added = try await rig.ok(node, "routine/add",
            #"{"id": "night", "label": "Night", "start": "03:00", "end": "04:00", "sound": "pink", "volume": 25, "fade_in_seconds": 0}"#)
        #expect(added["next_start"] == .string(MinuteBoundary.iso(start)) && added["active"] == false)
        #expect(try await rig.retained(node, "routines").arrayValue?.first?["id"] == "night")

        var mark = rig.client.messages.count
        try await node.setClock(to: start.addingTimeInterval(-1))
        let started = try await rig.client.waitFor("\(rig.root(node))/routine/event", timeout: 10, after: mark)
        #expect(started.json?["event"] == "started" && started.json?["id"] == "night" && started.json?["label"] == "Night")
        #expect(node.nodeTime(of: started.at) >= start, "started before its minute")
        try await rig.barrier(node)
        let noise = try await rig.retained(node, "noise")
        #expect(noise["playing"] == true && noise["sound"] == "pink" && noise["volume"] == 25 && noise["routine"] == "night")
        #expect(try await rig.retained(node, "routines").arrayValue?.first?["ends_at"] == .string(MinuteBoundary.iso(start.addingTimeInterval(3600))))

        mark = rig.client.messages.count
        try await node.setClock(to: start.addingTimeInterval(3599))
        let ended = try await rig.client.waitFor("\(rig.root(node))/routine/event", timeout: 10, after: mark)
        #expect(ended.json?["event"] == "ended")
        try await rig.barrier(node)
        let after = try await rig.retained(node, "noise")
        #expect(after["playing"] == false && after["routine"] == .null)
        #expect(rig.messages(node, "routine/event", after: 0).count == 2)
    }

    @Test func aManualNoiseCommandOverridesTheRoutine() async throws {
        let (rig, node) = try await AlarmRig.started("overridenode")
        defer { rig.shutdown() }
        try await rig.ok(node, "routine/add", #"{"id": "wind", "start": "21:00", "duration_minutes": 60, "sound": "rain"}"#)
        var mark = rig.client.messages.count
        let started = try await rig.ok(node, "routine/start", "wind")
        #expect(started["active"] == true)
        #expect(try await rig.client.waitFor("\(rig.root(node))/routine/event", after: mark).json?["event"] == "started")

        mark = rig.client.messages.count
        try await rig.ok(node, "noise/set", #"{"sound": "white"}"#)
        let overridden = try await rig.client.waitFor("\(rig.root(node))/routine/event", after: mark)
        #expect(overridden.json?["event"] == "overridden" && overridden.json?["id"] == "wind")
        try await rig.barrier(node)
        let noise = try await rig.retained(node, "noise")
        #expect(noise["playing"] == true && noise["sound"] == "white" && noise["routine"] == .null)
        // Over HTTP-less MQTT the stop of a routine no longer running is refused.
        #expect(try await rig.command(node, "routine/stop", "")["error"]?["code"] == "not_found")
    }

    @Test func aRestartInsideTheWindowResumesTheRoutine() async throws {
        let (rig, node) = try await AlarmRig.started("resumenode")
        defer { rig.shutdown() }
        let start = NodeTime.minute(hour: 23, minute: 0)
        try await node.setClock(to: start.addingTimeInterval(-5))
        try await rig.ok(node, "routine/add", #"{"id": "bed", "start": "23:00", "end": "06:30", "sound": "brown"}"#)
        var mark = rig.client.messages.count
        try await node.setClock(to: start.addingTimeInterval(-1))
        #expect(try await rig.client.waitFor("\(rig.root(node))/routine/event", timeout: 10, after: mark).json?["event"] == "started")
        try await rig.barrier(node)
        node.killHard()

        // The power comes back at 03:00.
        try node.writeClock(to: start.addingTimeInterval(4 * 3600))
        mark = rig.client.messages.count
        try await rig.start(node)
        let resumed = try await rig.client.waitFor("\(rig.root(node))/routine/event", timeout: 10, after: mark)
        #expect(resumed.json?["event"] == "resumed" && resumed.json?["id"] == "bed")
        // At once: the node does not wait for a minute boundary (measured from its `online`, so a
        // slow start on a busy machine does not count).
        let online = try #require(rig.messages(node, "availability", after: mark).first { $0.text == "online" })
        #expect(resumed.at.timeIntervalSince(online.at) < 2, "resumed \(resumed.at.timeIntervalSince(online.at)) s after online")
        try await rig.barrier(node)
        let noise = try await rig.retained(node, "noise")
        #expect(noise["playing"] == true && noise["routine"] == "bed")
        let listed = try await rig.retained(node, "routines")
        #expect(listed.arrayValue?.first?["ends_at"] == .string(MinuteBoundary.iso(start.addingTimeInterval(7.5 * 3600))))
    }
}
