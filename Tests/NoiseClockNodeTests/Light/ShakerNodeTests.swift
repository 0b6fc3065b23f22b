import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Clock {
    /// The bed shaker on a real node: a plug played by a test client as its bridge documents it.
    struct ShakerNodeTests {
        static let plugs: [DeviceEndpoint] = [
            DeviceEndpoint(topic: "zigbee2mqtt/bed_shaker_plug", bridge: .zigbee2mqtt),
            DeviceEndpoint(topic: "bed_shaker", bridge: .tasmota),
        ]

        static func start(_ rig: AlarmRig, _ plug: DeviceEndpoint) async throws -> (NodeProcess, Date) {
            let node = try NodeProcess(
                brokerPort: rig.broker.port,
                yamlExtra: "devices:\n  shaker:\n    topic: \(plug.topic)\n    protocol: \(plug.bridge.rawValue)\n"
            )
            let ring = NodeTime.minute(hour: 7, minute: 0)
            try node.writeClock(to: ring.addingTimeInterval(-60))
            try await rig.start(node)
            try await rig.ok(node, "alarm/add",
                #"{"id": "wake", "time": "07:00", "repeat": "daily", "vibrate": true, "ring_minutes": 5, "snooze_minutes": 5}"#)
            return (node, ring)
        }

        static func isOn(_ command: BridgeSimulator.Command) -> Bool { command.json?["state"] == "ON" || command.payload == "ON" }

        @Test(arguments: plugs)
        func aConfirmingPlugShakesWhileItRingsAndStopsOnSnoozeDismissAndTimeout(plug: DeviceEndpoint) async throws {
            let rig = try await AlarmRig()
            defer { rig.shutdown() }
            let bridge = try await BridgeSimulator(port: rig.broker.port, device: plug)
            defer { bridge.shutdown() }
            let (node, ring) = try await Self.start(rig, plug)
            defer { node.killHard() }
            let root = rig.root(node)

            var mark = rig.client.messages.count
            try await node.setClock(to: ring)
            let fired = try await rig.client.waitFor("\(root)/alarm/fired", after: mark)
            let on = try await bridge.waitFor(where: Self.isOn)
            #expect(on.at.timeIntervalSince(fired.at) < 1)
            let shaking = try await rig.client.waitFor("\(root)/alarm/event", after: mark, where: { $0.json?["event"] == "shaking" })
            #expect(shaking.json?["id"] == "wake" && shaking.json?["vibrate"] == true)

            // Snooze: off within a second.
            var count = bridge.commands.count
            var sent = Date()
            try await rig.ok(node, "alarm/snooze", "")
            var off = try await bridge.waitFor(after: count, where: { !Self.isOn($0) })
            #expect(off.at.timeIntervalSince(sent) < 1)

            // Rings again when the snooze ends: on again, and shaking again.
            mark = rig.client.messages.count
            count = bridge.commands.count
            try await node.setClock(to: ring.addingTimeInterval(5 * 60 + 1))
            _ = try await bridge.waitFor(after: count, where: Self.isOn)
            _ = try await rig.client.waitFor("\(root)/alarm/event", after: mark, where: { $0.json?["event"] == "shaking" })

            // Dismiss: off.
            count = bridge.commands.count
            sent = Date()
            try await rig.ok(node, "alarm/dismiss", "")
            off = try await bridge.waitFor(after: count, where: { !Self.isOn($0) })
            #expect(off.at.timeIntervalSince(sent) < 1)

            // The next day's ring times out: off at the time-out.
            count = bridge.commands.count
            let tomorrow = ring.addingTimeInterval(86_400)
            try await node.setClock(to: tomorrow)
            _ = try await bridge.waitFor(after: count, where: Self.isOn)
            count = bridge.commands.count
            mark = rig.client.messages.count
            try await node.setClock(to: tomorrow.addingTimeInterval(5 * 60))
            let timedOut = try await rig.client.waitFor("\(root)/alarm/event", after: mark, where: { $0.json?["event"] == "timed_out" })
            off = try await bridge.waitFor(after: count, where: { !Self.isOn($0) })
            #expect(abs(off.at.timeIntervalSince(timedOut.at)) < 1)
        }

        @Test(arguments: plugs)
        func aSilentPlugIsReportedFailedWhileTheSoundGoesOn(plug: DeviceEndpoint) async throws {
            let rig = try await AlarmRig()
            defer { rig.shutdown() }
            let bridge = try await BridgeSimulator(port: rig.broker.port, device: plug, silent: true)
            defer { bridge.shutdown() }
            let (node, ring) = try await Self.start(rig, plug)
            defer { node.killHard() }
            let root = rig.root(node)
            let mark = rig.client.messages.count
            try await node.setClock(to: ring)
            _ = try await bridge.waitFor(where: Self.isOn)
            // The plug's 5 s pass on the node's clock.
            try await node.setClock(to: ring.addingTimeInterval(6))
            let failed = try await rig.client.waitFor("\(root)/alarm/event", after: mark, where: {
                $0.json?["event"] == "failed" && $0.json?["reason"] == "shaker_unconfirmed"
            })
            #expect(failed.json?["id"] == "wake")
            #expect(!rig.messages(node, "alarm/event", after: mark).contains { $0.json?["event"] == "shaking" })
            // Still ringing: the sound is not stopped by the shaker.
            #expect(try await rig.retained(node, "alarm")["state"] == "ringing")
        }
    }
}
