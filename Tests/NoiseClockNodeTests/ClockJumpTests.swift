import Foundation
import NoiseClockCore
import Testing

/// A Raspberry Pi without a real-time clock boots with a stale time (the last one saved) and
/// learns the real one when NTP syncs, in one step forward. The node takes the step as any clock
/// change: alarms whose time was jumped over ring if still within `ring_minutes`, are reported
/// `missed` once if older, and the plans start from the new time; nothing rings twice.
@Suite struct ClockJumpTests {
    @Test func ntpStepAfterABootWithAStaleClockRingsOrReportsWhatItJumpedOver() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let node = try rig.makeNode("rtcless")
        let synced = NodeTime.minute(hour: 8, minute: 0)  // the real time NTP will bring
        // Booted with the time saved at shutdown, two hours behind.
        try node.writeClock(to: synced.addingTimeInterval(-2 * 3600))
        try await rig.start(node)
        let root = rig.root(node)
        let early = try await rig.ok(node, "alarm/add", #"{"id": "early", "time": "06:30", "repeat": "daily", "sound": "none"}"#)
        let late = try await rig.ok(node, "alarm/add", #"{"id": "late", "time": "07:58", "repeat": "daily", "sound": "none"}"#)
        #expect(early["next_trigger"] == .string(MinuteBoundary.iso(synced.addingTimeInterval(-5400))))
        #expect(late["next_trigger"] == .string(MinuteBoundary.iso(synced.addingTimeInterval(-120))))

        let mark = rig.client.messages.count
        try await node.setClock(to: synced.addingTimeInterval(5))  // the NTP step
        try await rig.client.waitFor("\(root)/alarm/fired", timeout: 10, after: mark)
        try await rig.barrier(node)
        let events = rig.messages(node, "alarm/event", after: mark).compactMap(\.json)
        #expect(events.map { "\($0["event"]?.stringValue ?? "") \($0["id"]?.stringValue ?? "")" } == ["missed early", "fired late"])
        #expect(node.log.contains("system clock changed; re-planning"))
        // Planned afresh from the real time: tomorrow for both.
        let alarms = try #require(rig.latest(node, "alarms")?.arrayValue)
        #expect(alarms.first { $0["id"] == "early" }?["next_trigger"] == .string(MinuteBoundary.iso(synced.addingTimeInterval(86_400 - 5400))))
        #expect(alarms.first { $0["id"] == "late" }?["next_trigger"] == .string(MinuteBoundary.iso(synced.addingTimeInterval(86_400 - 120))))

        // A second step (a later correction) rings nothing again.
        let again = rig.client.messages.count
        try await node.setClock(to: synced.addingTimeInterval(65))
        try await rig.barrier(node)
        let repeated = rig.messages(node, "alarm/event", after: again).compactMap { $0.json?["event"]?.stringValue }
        #expect(!repeated.contains("fired") && !repeated.contains("missed"), "\(repeated)")
    }
}
