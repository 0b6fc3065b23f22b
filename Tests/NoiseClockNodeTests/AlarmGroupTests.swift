import Foundation
import Glibc
import NoiseClockCore
import Testing

/// Alarm groups on real nodes and a real mosquitto: one dismiss (or snooze) stops the family's
/// alarm in every room, nothing is said twice, and a node that joins later is rung by nothing.
/// (The latency figure, p50 and worst of 20 rings, is `Benchmarks/group-dismiss.sh`.)
@Suite struct AlarmGroupTests {
    static let groupTopic = "noiseclock/groups/family/ring"

    /// Rings the `family` alarm on every node (alarm/test) and waits for each fire.
    static func ring(_ rig: AlarmRig, _ nodes: [NodeProcess]) async throws {
        let mark = rig.client.messages.count
        for node in nodes { try await rig.ok(node, "alarm/test", "family") }
        for node in nodes { try await rig.client.waitFor("\(rig.root(node))/alarm/fired", timeout: 10, after: mark) }
    }

    static func event(_ rig: AlarmRig, _ node: NodeProcess, _ event: String, after mark: Int) async throws -> TestClient.Received {
        try await rig.client.waitFor("\(rig.root(node))/alarm/event", timeout: 10, after: mark, where: { $0.json?["event"]?.stringValue == event })
    }

    @Test func oneDismissOrSnoozeReachesEveryRoomOnceAndNotLateJoiners() async throws {
        let rig = try await AlarmRig()
        let a = try rig.makeNode("room_a"), b = try rig.makeNode("room_b")
        try await rig.start(a)
        try await rig.start(b)
        for node in [a, b] {
            try await rig.ok(node, "alarm/add", #"{"id": "family", "time": "03:00", "sound": "none", "group": "family"}"#)
        }
        let groupMark = rig.client.messages.count

        // Dismissed over MQTT on A: B dismisses too.
        try await Self.ring(rig, [a, b])
        var mark = rig.client.messages.count
        try await rig.ok(a, "alarm/dismiss", "")
        let told = try await rig.client.waitFor(Self.groupTopic, timeout: 5, after: mark)
        #expect(told.json?["action"] == "dismiss")
        #expect(told.json?["node"] == "room_a")
        let followed = try await Self.event(rig, b, "dismissed", after: mark)
        print("group dismiss: room_a's message → room_b dismissed: \(Int(followed.at.timeIntervalSince(told.at) * 1000)) ms")
        #expect(rig.latest(b, "alarm")?["state"] == "idle")

        // Snoozed on B: A snoozes for the same minutes.
        try await Self.ring(rig, [a, b])
        mark = rig.client.messages.count
        try await rig.ok(b, "alarm/snooze", "15")
        let snoozed = try await Self.event(rig, a, "snoozed", after: mark)
        #expect(snoozed.json?["id"] == "family")
        let state = try await rig.client.waitFor("\(rig.root(a))/alarm", after: mark, where: { $0.json?["state"] == "snoozed" })
        #expect(state.json?["snooze_until"] != nil)
        // Dismissed while snoozed (on A): B's snoozed alarm ends too.
        mark = rig.client.messages.count
        try await rig.ok(a, "alarm/dismiss", "")
        _ = try await Self.event(rig, b, "dismissed", after: mark)

        // A node that joins later, its family alarm ringing: nothing from before rings it off.
        let c = try rig.makeNode("room_c")
        try await rig.start(c)
        try await rig.ok(c, "alarm/add", #"{"id": "family", "time": "03:00", "sound": "none", "group": "family"}"#)
        mark = rig.client.messages.count
        try await Self.ring(rig, [c])
        try await rig.barrier(c)
        let events: [String] = rig.messages(c, "alarm/event", after: mark).compactMap { $0.json?["event"]?.stringValue }
        #expect(!events.contains("dismissed") && !events.contains("snoozed"))
        #expect(rig.latest(c, "alarm")?["state"] == "ringing")

        // Three actions, three group messages, each from the node where it was taken: no node
        // ever published in reply to a group message.
        for node in [a, b, c] { try await rig.barrier(node) }
        let messages: [TestClient.Received] = rig.client.messages.dropFirst(groupMark).filter { $0.topic == Self.groupTopic }
        let senders: [String] = messages.compactMap { $0.json?["node"]?.stringValue }
        let actions: [String] = messages.compactMap { $0.json?["action"]?.stringValue }
        #expect(senders == ["room_a", "room_b", "room_a"])
        #expect(actions == ["dismiss", "snooze", "dismiss"])
        #expect(messages.allSatisfy { !$0.retain })
    }
}
