import Foundation
import Glibc
import NoiseClockCore
import Testing

/// `at_risk` names the alarm it threatens (mqtt-api v1.4): a node whose sound device cannot be
/// opened says nothing at start (no next alarm: no `at_risk` with `"id": null`), and an alarm
/// added for tonight gets `at_risk` naming it (id, next) within 5 s of its answer.
@Suite struct AtRiskNamesItsAlarmTests {
    @Test func anAlarmAddedForTonightOnANodeWithoutASoundDeviceIsWarnedAboutByName() async throws {
        let broker = try TestBroker()
        // The test nodes' `null_noiseclock_test` is no ALSA device: it cannot be opened.
        let node = try NodeProcess(brokerPort: broker.port)
        let evening = NodeTime.minute(hour: 20, minute: 0)
        try node.writeClock(to: evening)
        try node.writeClockSync("synced")
        let root = "noiseclock/\(node.nodeID)"
        let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
        defer { client.shutdown() }
        try node.start()
        defer { node.killHard() }
        // The check at start has run: `~/alarm` says the device's problem.
        let checked = try await client.waitFor("\(root)/alarm", timeout: 15, where: {
            $0.json?["ready"]?["problems"]?.arrayValue?.first?["code"] == "audio_unavailable"
        })
        #expect(checked.json?["next"] == .null)

        let mark = client.messages.count
        client.publish("\(root)/alarm/add", #"{"id": "tonight", "time": "23:30", "request_id": "add"}"#)
        let added = try await client.waitFor("\(root)/response", timeout: 10, after: mark, where: { $0.json?["request_id"] == "add" })
        #expect(added.json?["ok"] == true, "\(added.text)")
        let risk = try await client.waitFor("\(root)/alarm/event", timeout: 10, after: mark, where: { $0.json?["event"] == "at_risk" })
        let seconds = risk.at.timeIntervalSince(added.at)
        print("alarm added → at_risk naming it: \(Int(seconds * 1000)) ms")
        #expect(seconds < 5, "at_risk \(seconds) s after the alarm was added")
        #expect(risk.json?["id"] == "tonight", "\(risk.text)")
        let tonight = evening.addingTimeInterval(3.5 * 3600)
        #expect(risk.json?["next"]?.stringValue == MinuteBoundary.iso(tonight), "\(risk.text)")
        #expect(risk.json?["problems"]?.arrayValue?.first?["code"] == "audio_unavailable")

        // Everything the node said is out (one loop, in order): never an `at_risk` about no alarm.
        try await client.barrier(root)
        let anonymous = client.messages(on: "\(root)/alarm/event").filter { $0.json?["event"] == "at_risk" && $0.json?["id"] == .null }
        #expect(anonymous.isEmpty, "at_risk with id null: \(anonymous.map(\.text))")
    }
}
