import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Clock {
    /// A sunrise on a real node, with a real broker and the lamp's bridge played by a test client
    /// answering as the bridge documents it, for both bridges. The node's clock is moved by the
    /// test in 6 s jumps: finer than a step, so the node's own pacing is what is measured, and
    /// never within a second of a grid point or of "15 s after the last command", so the few
    /// real milliseconds between two jumps never decide which jump a command follows.
    struct SunriseNodeTests {
        static let bridges: [DeviceEndpoint] = [
            DeviceEndpoint(topic: "zigbee2mqtt/bedroom_lamp", bridge: .zigbee2mqtt),
            DeviceEndpoint(topic: "bedroom_bulb", bridge: .tasmota),
        ]

        static func yaml(light: DeviceEndpoint) -> String {
            "devices:\n  light:\n    topic: \(light.topic)\n    protocol: \(light.bridge.rawValue)\n"
        }

        /// A node with the lamp, its clock 11 minutes before a 07:00 ring, and the alarm with a
        /// 10-minute sunrise.
        static func start(_ rig: AlarmRig, _ lamp: DeviceEndpoint, extra: String = "") async throws -> (NodeProcess, Date) {
            let node = try NodeProcess(brokerPort: rig.broker.port, yamlExtra: yaml(light: lamp))
            let ring = NodeTime.minute(hour: 7, minute: 0)
            try node.writeClock(to: ring.addingTimeInterval(-11 * 60))
            try await rig.start(node)
            try await rig.ok(node, "alarm/add", #"{"id": "wake", "time": "07:00", "repeat": "daily", "light_minutes": 10\#(extra)}"#)
            return (node, ring)
        }

        /// Moves the node's clock from `from` to `to` in 6 s jumps; each command the lamp gets is
        /// stamped with the node's time of the jump it followed.
        @discardableResult
        static func walk(_ rig: AlarmRig, _ node: NodeProcess, _ bridge: BridgeSimulator, from: Date,
            to: Date) async throws -> [(Date, BridgeSimulator.Command)] {
            var stamped: [(Date, BridgeSimulator.Command)] = []
            var at = from
            while at <= to {
                let seen = bridge.commands.count
                try await node.setClock(to: at)
                try await rig.barrier(node)
                try await bridge.sync()
                stamped += bridge.commands.dropFirst(seen).map { (at, $0) }
                at = at.addingTimeInterval(6)
            }
            return stamped
        }

        @Test(arguments: bridges)
        func aTenMinuteSunriseGlidesInAtMost41CommandsToFullAtTheRing(lamp: DeviceEndpoint) async throws {
            let rig = try await AlarmRig()
            defer { rig.shutdown() }
            let bridge = try await BridgeSimulator(port: rig.broker.port, device: lamp)
            defer { bridge.shutdown() }
            let (node, ring) = try await Self.start(rig, lamp)
            defer { node.killHard() }

            let stamped = try await Self.walk(rig, node, bridge, from: ring.addingTimeInterval(-10 * 60 - 1), to: ring.addingTimeInterval(-1))
            try await node.setClock(to: ring)
            try await rig.barrier(node)
            try await bridge.sync()
            let sent = bridge.commands
            #expect(sent.count == stamped.count, "the last glide already ends at the ring")
            let lights = sent.compactMap(\.light)
            // 40 on time; here each waits for the next 6 s jump (every 18 s): at least 600/18.
            #expect(sent.count <= 41 && sent.count >= 33, "\(sent.count) commands")
            #expect(lights.count == sent.count)
            #expect(lights.first.map { $0.percent <= 1.5 } == true, "starts at 1 %: \(String(describing: lights.first))")
            for (a, b) in zip(lights, lights.dropFirst()) {
                #expect(b.percent >= a.percent && b.mireds <= a.mireds, "\(a) then \(b)")
            }
            #expect(lights.last?.mireds == 250)
            let times = stamped.map(\.0)
            for (a, b) in zip(times, times.dropFirst()) {
                #expect(b.timeIntervalSince(a) >= 14.9, "commands \(b.timeIntervalSince(a)) s apart")
            }
            // Each glide lasts a step (it ends where the curve is when the next is due); the last
            // reaches 100 % at the ring.
            for (at, command) in stamped.dropFirst().dropLast() {
                #expect(command.transition >= 15 && command.transition <= 16, "\(command.payload) at \(at)")
            }
            let (lastAt, last) = try #require(stamped.last)
            #expect((last.light?.percent ?? 0) >= 100)
            let full = lastAt.addingTimeInterval(last.transition)
            #expect(abs(full.timeIntervalSince(ring)) <= 1, "full at \(full), the ring at \(ring)")
            let light = try await rig.retained(node, "light")
            #expect(light["state"] == "ON" && light["brightness"] == 100 && light["kelvin"] == 4000 && light["source"] == "sunrise")
            #expect(light["confirmed"] == true)
        }

        @Test(arguments: bridges)
        func aKilledNodeResumesAtTheBrightnessItShouldHaveReached(lamp: DeviceEndpoint) async throws {
            let rig = try await AlarmRig()
            defer { rig.shutdown() }
            let bridge = try await BridgeSimulator(port: rig.broker.port, device: lamp)
            defer { bridge.shutdown() }
            let (node, ring) = try await Self.start(rig, lamp)
            defer { node.killHard() }
            try await Self.walk(rig, node, bridge, from: ring.addingTimeInterval(-10 * 60 - 1), to: ring.addingTimeInterval(-6 * 60))
            node.killHard()
            // Back at half time.
            try node.writeClock(to: ring.addingTimeInterval(-5 * 60))
            let mark = bridge.commands.count
            try await rig.start(node)
            let first = try await bridge.waitFor(after: mark)
            let progress = node.nodeTime(of: first.at).timeIntervalSince(ring.addingTimeInterval(-10 * 60)) / 600
            let expected = Double(SunriseCurve.brightness(progress: progress))
            let light = try #require(first.light)
            #expect(abs(light.percent - expected) <= 1.5, "resumed at \(light.percent) %, the curve says \(expected) % at \(progress)")
            #expect(first.transition <= 0.5)
        }

        @Test(arguments: bridges, ["alarm/skip", "alarm/delete", "alarm/update"])
        func aChangedAlarmStopsItsSunriseWithAFadeOff(lamp: DeviceEndpoint, command: String) async throws {
            let rig = try await AlarmRig()
            defer { rig.shutdown() }
            let bridge = try await BridgeSimulator(port: rig.broker.port, device: lamp)
            defer { bridge.shutdown() }
            let (node, ring) = try await Self.start(rig, lamp)
            defer { node.killHard() }
            try await node.setClock(to: ring.addingTimeInterval(-5 * 60))
            _ = try await bridge.waitFor()
            let mark = bridge.commands.count
            try await rig.ok(node, command, command == "alarm/update" ? #"{"id": "wake", "time": "09:30"}"# : "wake")
            let off = try await bridge.waitFor(after: mark)
            #expect(off.isOff && off.transition == 5, "\(off.payload)")
            let light = try await rig.retained(node, "light")
            #expect(light["state"] == "OFF" && light["source"] == .null)
            // Nothing more comes until the old ring's time has passed.
            try await Self.walk(rig, node, bridge, from: ring.addingTimeInterval(-4 * 60 - 1), to: ring.addingTimeInterval(5))
            try await rig.barrier(node)
            #expect(bridge.commands.count == mark + 1, "\(bridge.commands.dropFirst(mark).map(\.payload))")
        }

        @Test(arguments: bridges)
        func afterDismissTheLightStaysOn(lamp: DeviceEndpoint) async throws {
            let rig = try await AlarmRig()
            defer { rig.shutdown() }
            let bridge = try await BridgeSimulator(port: rig.broker.port, device: lamp)
            defer { bridge.shutdown() }
            let (node, ring) = try await Self.start(rig, lamp)
            defer { node.killHard() }
            try await node.setClock(to: ring.addingTimeInterval(-20))
            try await node.setClock(to: ring)
            _ = try await bridge.waitFor(where: { ($0.light?.percent ?? 0) >= 100 })
            let mark = bridge.commands.count
            try await rig.ok(node, "alarm/dismiss", "")
            try await rig.barrier(node)
            #expect(bridge.commands.count == mark)
            #expect(try await rig.retained(node, "light")["state"] == "ON")
        }
    }
}
