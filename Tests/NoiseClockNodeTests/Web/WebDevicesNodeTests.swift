import Foundation
import Glibc
import NoiseClockCore
import Testing

/// The settings page's lamp, shaker and buttons on a real node (issue 30): re-bound by
/// `POST /api/settings` while the node runs, no restart, the alarms left alone; the devices played
/// by test clients as Zigbee2MQTT and Tasmota document (`BridgeSimulator`), the button a FIFO fed
/// `struct input_event` records. How fast each change took effect is printed (a figure, not a
/// bound: the parallel stage is too busy to time).
@Suite struct WebDevicesNodeTests {
    static func result(_ reply: WebReply) throws -> JSONValue {
        try #require(try JSONParser().parse(reply.body)["result"], "\(reply.text)")
    }

    @Test func theLampAndTheShakerAreReboundLiveAndTestedFromTheWebApp() async throws {
        let id = UUID().uuidString.prefix(6).lowercased()
        let lampA = DeviceEndpoint(topic: "zigbee2mqtt/lamp_a_\(id)", bridge: .zigbee2mqtt)
        let lampB = DeviceEndpoint(topic: "lamp_b_\(id)", bridge: .tasmota)
        let plug = DeviceEndpoint(topic: "zigbee2mqtt/plug_\(id)", bridge: .zigbee2mqtt)
        let rig = try await WebRig.start(yamlExtra: "devices:\n  light:\n    topic: \(lampA.topic)\n    protocol: zigbee2mqtt\n")
        defer { rig.shutdown() }
        let port = rig.online.broker.port
        async let startA = BridgeSimulator(port: port, device: lampA)
        async let startB = BridgeSimulator(port: port, device: lampB)
        async let startPlug = BridgeSimulator(port: port, device: plug)
        let (bridgeA, bridgeB, plugBridge) = try await (startA, startB, startPlug)
        defer { bridgeA.shutdown(); bridgeB.shutdown(); plugBridge.shutdown() }

        // The lamp at its first address: on, confirmed, and its "Test" answered with its word.
        var mark = rig.client.messages.count
        #expect(try await rig.post("light/set", #"{"state": "ON", "brightness": 60}"#).status == 200)
        try await rig.client.waitFor("\(rig.root)/light", after: mark, where: { $0.json?["confirmed"] == true })
        let first = try Self.result(try await rig.post("devices/test", #"{"kind": "light"}"#))
        #expect(first["status"] == "confirmed" && first["state"] == "ON" && first["topic"] == .string(lampA.topic), "\(first.serialized)")
        #expect(try await bridgeA.waitFor(where: { $0.topic == "\(lampA.topic)/get" }).payload == #"{"state":""}"#)

        // Moved to a Tasmota bulb: the old lamp is switched off, the new one shows the light, and answers.
        mark = rig.client.messages.count
        let countA = bridgeA.commands.count
        let sent = Date()
        let changed = try await rig.post("settings", #"{"devices.light.topic": "\#(lampB.topic)", "devices.light.protocol": "tasmota"}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(try JSONParser().parse(changed.body)["applies"]?["devices.light.topic"] == "now")
        #expect(try await bridgeA.waitFor(after: countA, where: \.isOff).topic == "\(lampA.topic)/set")
        let shown = try await bridgeB.waitFor(where: { $0.payload.contains("Dimmer 60") })
        let confirmed = try await rig.client.waitFor("\(rig.root)/light", after: mark, where: { $0.json?["confirmed"] == true })
        print("live lamp re-binding: the new lamp shown the light \(Int(shown.at.timeIntervalSince(sent) * 1000)) ms and "
            + "~/light confirmed by it \(Int(confirmed.at.timeIntervalSince(sent) * 1000)) ms after POST /api/settings")
        #expect(confirmed.json?["state"] == "ON" && confirmed.json?["brightness"] == 60)
        let second = try Self.result(try await rig.post("devices/test", #"{"kind": "light"}"#))
        #expect(second["status"] == "confirmed" && second["state"] == "ON" && second["protocol"] == "tasmota", "\(second.serialized)")

        // A shaker bound while a vibrate alarm rings starts at once; the ring goes on.
        #expect(try await rig.post("alarm/add", #"{"id": "wake", "time": "06:00", "vibrate": true}"#).status == 200)
        #expect(try await rig.post("alarm/test", #"{"id": "wake"}"#).status == 200)
        try await rig.client.waitFor("\(rig.root)/alarm", where: { $0.json?["state"] == "ringing" })
        mark = rig.client.messages.count
        let bound = Date()
        #expect(try await rig.post("settings", #"{"devices.shaker.topic": "\#(plug.topic)"}"#).status == 200)
        let on = try await plugBridge.waitFor(where: { $0.json?["state"] == "ON" })
        let shaking = try await rig.client.waitFor("\(rig.root)/alarm/event", after: mark, where: { $0.json?["event"] == "shaking" })
        print("live shaker re-binding: the plug switched on \(Int(on.at.timeIntervalSince(bound) * 1000)) ms, `shaking` "
            + "\(Int(shaking.at.timeIntervalSince(bound) * 1000)) ms after POST /api/settings")
        #expect(shaking.json?["id"] == "wake")
        let plugTest = try Self.result(try await rig.post("devices/test", #"{"kind": "shaker"}"#))
        #expect(plugTest["status"] == "confirmed" && plugTest["state"] == "ON", "\(plugTest.serialized)")
        let state = try JSONParser().parse(try await rig.get("/api/state").body)
        #expect(state["alarm"]?["state"] == "ringing", "the ring goes on: \(state["alarm"]?.serialized ?? "none")")
    }

    @Test func aButtonBoundFromTheWebAppByLearningItsKeySnoozesTheRingingAlarm() async throws {
        let fifo = try ButtonIntegrationTests.Fifo()
        let rig = try await WebRig.start()
        defer { rig.shutdown() }

        // Learn mode on a device no button reads yet: the key pressed comes back by name.
        let learn = try Self.result(try await rig.post("buttons/learn", #"{"device": "\#(fifo.path)"}"#))
        #expect(learn["seconds"] == 30 && learn["device"] == .string(fifo.path), "\(learn.serialized)")
        try await fifo.plugOnceRead()
        var mark = rig.client.messages.count
        let volumeUp = try #require(InputKey("KEY_VOLUMEUP"))
        let tap: [InputEvent] = [.key(volumeUp, 1), ButtonIntegrationTests.syn, .key(volumeUp, 0), ButtonIntegrationTests.syn]
        try fifo.send(tap)
        let learned = try await rig.client.waitFor("\(rig.root)/button/event", after: mark, where: { $0.json?["key"] != nil })
        #expect(learned.json?["button"] == .null)
        let key = try #require(learned.json?["key"]?.stringValue)
        #expect(key == "KEY_VOLUMEUP")
        // Closed before the readers change: a write to a FIFO nobody reads would raise SIGPIPE here.
        fifo.unplug()

        // Bound with that key: the node reads the FIFO for it, no restart.
        mark = rig.client.messages.count
        let sent = Date()
        // With an MQTT button too: its topic is subscribed at once.
        let remote = "zigbee2mqtt/remote_\(UUID().uuidString.prefix(6).lowercased())"
        let binding = #"{"buttons": [{"id": "learned", "input": {"device": "\#(fifo.path)", "key": "\#(key)"}}, "#
            + #"{"id": "remote", "mqtt": {"topic": "\#(remote)", "field": "action"}}]}"#
        let changed = try await rig.post("settings", binding)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(try JSONParser().parse(changed.body)["applies"]?["buttons"] == "now")
        let connected = try await rig.client.waitFor("\(rig.root)/buttons", after: mark, where: {
            $0.json?.arrayValue?.first { $0["id"] == "learned" }?["status"] == "connected"
        })
        print("live button binding: ~/buttons has it connected \(Int(connected.at.timeIntervalSince(sent) * 1000)) ms after POST /api/settings")
        try await fifo.plugOnceRead()

        // It snoozes the ringing alarm.
        try await rig.ringTestAlarm()
        mark = rig.client.messages.count
        try fifo.send(tap)
        let press = try #require(try await rig.client.waitFor("\(rig.root)/button/event", after: mark).json)
        #expect(press["button"] == "learned" && press["gesture"] == "press", "\(press.serialized)")
        let snoozed = try await rig.client.waitFor("\(rig.root)/response", after: mark, where: { $0.json?["command"] == "alarm/snooze" })
        #expect(snoozed.json?["ok"] == true, "\(snoozed.text)")
        try await rig.client.waitFor("\(rig.root)/alarm", after: mark, where: { $0.json?["state"] == "snoozed" })
        // The MQTT button bound with it: a hold dismisses.
        mark = rig.client.messages.count
        rig.client.publish(remote, #"{"action": "hold"}"#)
        let hold = try #require(try await rig.client.waitFor("\(rig.root)/button/event", after: mark).json)
        #expect(hold["button"] == "remote" && hold["gesture"] == "hold", "\(hold.serialized)")
        try await rig.client.waitFor("\(rig.root)/alarm/event", after: mark, where: { $0.json?["event"] == "dismissed" })
    }
}

extension ButtonIntegrationTests.Fifo {
    /// Plugs the "device" in once the node reads it: opening a FIFO for writing without blocking says
    /// ENXIO until a reader has it open (a node that never opens it fails here, not hangs in `open`).
    func plugOnceRead(timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { return }
            guard errno == ENXIO, Date() < deadline else {
                throw TestFailure("the node did not open \(path) for reading: \(String(cString: strerror(errno)))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
