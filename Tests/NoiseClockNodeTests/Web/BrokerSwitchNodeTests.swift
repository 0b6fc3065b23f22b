import Foundation
import Glibc
import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// The broker changed in the web app (issue 30, "No lock-out"): the node goes to the new broker
/// live, and one it cannot reach is rolled back after 10 s of the node's clock, which the test
/// moves instead of waiting. Two real brokers, the real node.
@Suite struct BrokerSwitchNodeTests {
    @Test func aNewBrokerTakesOverLiveAndADeadOneIsRolledBack() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let second = try TestBroker()
        let watcher = try await TestClient(port: second.port, subscriptions: ["\(rig.root)/#", "homeassistant/#"])
        // Stopped beside the rig's client, not after it: each may wait out its loop's 1 s timeout.
        defer { Task.detached { watcher.shutdown() } }
        let dead = try freeLoopbackPort()

        // "Test connection" changes nothing: a broker that answers, and one that does not.
        let good = try JSONParser().parse(try await rig.post("mqtt/test", #"{"host": "127.0.0.1", "port": \#(second.port)}"#).body)
        #expect(good["result"]?["connected"] == true, "\(good)")
        let refused = try JSONParser().parse(try await rig.post("mqtt/test", #"{"host": "127.0.0.1", "port": \#(dead)}"#).body)
        #expect(refused["result"]?["connected"] == false, "\(refused)")
        #expect(refused["result"]?["reason"]?.stringValue?.contains("refused") == true, "\(refused)")
        #expect(try await rig.post("mqtt/test", #"{"port": 1883}"#).status == 400)
        #expect(!FileManager.default.fileExists(atPath: rig.node.stateDirectory.appendingPathComponent("settings.json").path))
        #expect(watcher.messages.isEmpty)

        // To the second broker: online there, its retained state and discovery published, offline left on the first.
        let mark = rig.client.messages.count
        let sent = Date()
        let moved = try await rig.post("settings", #"{"mqtt.port": \#(second.port)}"#)
        #expect(moved.status == 200, "\(moved.text)")
        let answer = try JSONParser().parse(moved.body)
        #expect(answer["applies"]?["mqtt.port"] == "now")
        #expect(answer["broker"]?["state"] == "connecting", "\(answer["broker"] ?? .null)")
        let online = try await watcher.waitFor("\(rig.root)/availability", where: { $0.text == "online" })
        print("broker change: online on the new broker \(Int(online.at.timeIntervalSince(sent) * 1000)) ms after POST /api/settings")
        #expect(online.at.timeIntervalSince(sent) < 5)
        try await watcher.waitFor("\(rig.root)/alarms", where: { $0.retain })
        let discovery = Date().addingTimeInterval(15)
        while !watcher.messages.contains(where: { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }), Date() < discovery {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(watcher.messages.contains { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") })
        try await rig.client.waitFor("\(rig.root)/availability", after: mark, where: { $0.text == "offline" && $0.retain })
        try await waitForBroker(rig, state: "connected")
        // Commands reach it there.
        watcher.publish("\(rig.root)/alarm/add", #"{"id": "moved", "time": "07:00"}"#)
        try await watcher.waitFor("\(rig.root)/alarms", where: { $0.text.contains("moved") })

        // A dead port: back to the second broker once 10 s have passed on the node's clock.
        let before = watcher.messages.count
        let tried = try await rig.post("settings", #"{"mqtt.port": \#(dead)}"#)
        #expect(tried.status == 200, "\(tried.text)")
        try await watcher.waitFor("\(rig.root)/availability", after: before, where: { $0.text == "offline" })
        try await rig.node.setClock(to: rig.node.now.addingTimeInterval(10))
        let shifted = Date()
        let status = try await waitForBroker(rig, state: "rolled_back")
        print("broker roll-back: \(Int(Date().timeIntervalSince(shifted) * 1000)) ms after the node's clock passed 10 s")
        #expect(status["reason"]?.stringValue?.contains("\(dead)") == true, "\(status)")
        #expect(status["reason"]?.stringValue?.contains("back to 127.0.0.1:\(second.port)") == true, "\(status)")
        try await watcher.waitFor("\(rig.root)/availability", after: before, where: { $0.text == "online" })
        let settings = try JSONParser().parse([UInt8](Data(contentsOf: rig.node.stateDirectory.appendingPathComponent("settings.json"))))
        #expect(settings["values"]?["mqtt.port"] == .int(Int64(second.port)), "\(settings)")
        let shown = try JSONParser().parse(try await rig.get("/api/settings").body)
        #expect(shown["values"]?["mqtt.port"] == .int(Int64(second.port)))
        // The settings themselves never went over MQTT.
        #expect(!watcher.messages.contains { $0.text.contains("\"values\"") || $0.topic.contains("settings") })
    }

    /// Polls `GET /api/settings` until its `broker` status is `state`; returns it.
    @discardableResult
    func waitForBroker(_ rig: WebRig, state: String, timeout: Double = 15) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var last: JSONValue = .null
        while Date() < deadline {
            last = try JSONParser().parse(try await rig.get("/api/settings").body)["broker"] ?? .null
            if last["state"] == .string(state) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("broker status not \(state) within \(timeout) s: \(last)\n\(rig.node.log.suffix(3000))")
    }
}

/// The same roll-back on the real clock: 10 s of waiting, too long for the integration run, so it
/// runs in the stream stage (scripts/stream-tests.sh), which has room.
@Suite(.enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct BrokerRollBackRealTimeTests {
    @Test func aDeadBrokerIsRolledBackWithinTenSecondsAndTwo() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let dead = try freeLoopbackPort()
        let mark = rig.client.messages.count
        let sent = Date()
        #expect(try await rig.post("settings", #"{"mqtt.port": \#(dead)}"#).status == 200)
        try await rig.client.waitFor("\(rig.root)/availability", after: mark, where: { $0.text == "offline" })
        let back = try await rig.client.waitFor("\(rig.root)/availability", timeout: 20, after: mark, where: { $0.text == "online" })
        let seconds = back.at.timeIntervalSince(sent)
        print("broker roll-back on the real clock: online on the old broker again \(Int(seconds * 1000)) ms after POST /api/settings")
        #expect(seconds >= 10 && seconds <= 12, "\(seconds) s")
        let status = try JSONParser().parse(try await rig.get("/api/settings").body)["broker"]
        #expect(status?["state"] == "rolled_back", "\(status ?? .null)")
    }
}
