import Foundation
import NoiseClockCore
import Testing

/// `light_unconfirmed` on a real node: the lamp (`devices.light`, a Zigbee2MQTT lamp played by the
/// test bridge) takes a command and says nothing for 5 s (the node's clock is moved on), then
/// answers the next one.
@Suite struct LightReadinessTests {
    static let lamp = DeviceEndpoint(topic: "zigbee2mqtt/bedside_lamp", bridge: .zigbee2mqtt)

    static func codes(_ ready: JSONValue) -> [String] {
        ready["problems"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    @Test func aLampThatDoesNotAnswerIsAProblemUntilItAnswers() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let bridge = try await BridgeSimulator(port: rig.broker.port, device: Self.lamp, silent: true)
        defer { bridge.shutdown() }
        let node = try NodeProcess(
            brokerPort: rig.broker.port, yamlExtra: "devices:\n  light:\n    topic: \(Self.lamp.topic)\n    protocol: zigbee2mqtt\n"
        )
        let start = NodeTime.minute(hour: 21, minute: 0)
        try node.writeClock(to: start)
        try await rig.start(node)
        defer { node.killHard() }
        let root = rig.root(node)
        // An alarm for the problem to threaten: `at_risk` is judged per next alarm (v1.4) and names it.
        try await rig.ok(node, "alarm/add", #"{"id": "wake", "time": "06:30"}"#)
        #expect(!Self.codes(try await rig.ok(node, "alarm/check", "")).contains("light_unconfirmed"), "nothing sent yet")

        // A command the lamp takes and does not answer; within 5 s it is not yet a problem. The
        // node's clock runs meanwhile: on a loaded machine the check can come after those 5 s
        // (then the problem, and its `at_risk`, are already due: the mark is taken before).
        var mark = rig.client.messages.count
        let sent = node.now
        try await rig.ok(node, "light/set", #"{"state": "ON", "brightness": 40}"#)
        _ = try await bridge.waitFor(where: { $0.json?["state"] == "ON" })
        let early = Self.codes(try await rig.ok(node, "alarm/check", ""))
        if node.now.timeIntervalSince(sent) < 4.5 { #expect(!early.contains("light_unconfirmed")) }
        try await node.setClock(to: node.now.addingTimeInterval(6))
        var ready = try await rig.ok(node, "alarm/check", "")
        #expect(Self.codes(ready).contains("light_unconfirmed"), "\(ready)")
        let risk = try await rig.client.waitFor("\(root)/alarm/event", after: mark, where: { $0.json?["event"] == "at_risk" })
        #expect(risk.json.map(Self.codes)?.contains("light_unconfirmed") == true)
        #expect(risk.json?["id"] == "wake")

        // The lamp answers the next command: the problem is gone at the next check.
        bridge.silent = false
        mark = rig.client.messages.count
        try await rig.ok(node, "light/set", #"{"state": "ON", "brightness": 60}"#)
        _ = try await rig.client.waitFor("\(root)/light", after: mark, where: { $0.json?["confirmed"] == true })
        ready = try await rig.ok(node, "alarm/check", "")
        #expect(!Self.codes(ready).contains("light_unconfirmed"), "\(ready)")
    }
}
