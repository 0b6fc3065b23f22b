import Foundation
import NoiseClockCore
import Testing

/// `~/battery` from a fake power-supply tree the test writes (real files, as sysfs shows them).
struct BatteryIntegrationTests {
    /// Writes `text` as sysfs does (with a newline), replacing the file in one step so the
    /// node's poll never sees half a write.
    static func write(_ text: String, _ file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (text + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    /// True when `json` has exactly these fields.
    static func matches(_ json: JSONValue?, _ expected: [String: JSONValue]) -> Bool {
        guard let object = json?.objectValue, Set(object.keys) == Set(expected.keys) else { return false }
        return expected.allSatisfy { json?[$0.key] == $0.value }
    }

    @Test func levelChargingChangesAndMainsOnly() async throws {
        let tree = try makeTemporaryDirectory(prefix: "power")
        defer { try? FileManager.default.removeItem(at: tree) }
        let battery = tree.appendingPathComponent("BAT0")
        try Self.write("Mains", tree.appendingPathComponent("AC/type"))
        try Self.write("1", tree.appendingPathComponent("AC/online"))
        try Self.write("Battery", battery.appendingPathComponent("type"))
        try Self.write("87", battery.appendingPathComponent("capacity"))
        try Self.write("Charging", battery.appendingPathComponent("status"))

        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port, environment: [
            "NOISECLOCK_BATTERY_PATH": tree.path, "NOISECLOCK_BATTERY_INTERVAL_SECONDS": "5",
        ])
        try node.start()
        let root = "noiseclock/\(node.nodeID)"
        let topic = "\(root)/battery"
        let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
        defer { client.shutdown() }
        let first = try await client.waitFor(topic, timeout: 10)
        #expect(Self.matches(first.json, ["present": true, "level": 87, "charging": true, "status": "charging", "color": "green"]), "\(first.text)")

        // Retained: a newcomer sees it at once.
        let late = try await TestClient(port: broker.port, subscriptions: [topic])
        let retained = try await late.waitFor(topic)
        late.shutdown()
        #expect(retained.retain && retained.json == first.json)

        // Unplugged and run down: re-published within a poll (5 s) with the new colour.
        var mark = client.messages.count
        try Self.write("15", battery.appendingPathComponent("capacity"))
        try Self.write("Discharging", battery.appendingPathComponent("status"))
        let changed = Date()
        let low = try await client.waitFor(topic, timeout: 20, after: mark, where: { $0.json?["level"] == 15 })
        print("battery change published after \(low.at.timeIntervalSince(changed)) s")
        #expect(Self.matches(low.json, ["present": true, "level": 15, "charging": false, "status": "discharging", "color": "orange"]), "\(low.text)")
        // Unchanged, it is still re-published every interval_seconds (5 s), never repeated at once.
        // Each gap is judged against 1 s: a repeat at once comes within milliseconds, and a poll
        // keeps its schedule, so a publication late on a loaded machine shortens the next gap by
        // its lateness (1.27 s and 2.27 s seen; a 8.5 s bound on two gaps failed at load 16).
        mark = client.messages.count
        let again = try await client.waitFor(topic, timeout: 20, after: mark)
        #expect(again.json == low.json)
        let third = try await client.waitFor(topic, timeout: 20, after: client.messages.count)
        #expect(third.json == low.json)
        let gaps = [again.at.timeIntervalSince(low.at), third.at.timeIntervalSince(again.at)]
        print("battery re-published after \(gaps) s")
        #expect(gaps.allSatisfy { $0 > 1 }, "re-published after \(gaps) s: a repeat at once")

        // The battery taken out, mains only: no battery.
        try FileManager.default.removeItem(at: battery)
        mark = client.messages.count
        let mains = try await client.waitFor(topic, timeout: 20, after: mark, where: { $0.json?["present"] == false })
        #expect(Self.matches(mains.json, ["present": false, "status": "ac"]), "\(mains.text)")
        #expect(node.isRunning)
    }
}
