import Foundation
import Glibc
import NoiseClockCore
import Testing

/// Buttons on a real node and broker: a local button fed `struct input_event` records through a
/// FIFO, and a Zigbee2MQTT-style button (`{"action": "single"}` on its topic). A press snoozes the
/// ringing alarm, a hold dismisses it; each gesture is on `~/button/event` and its command is
/// answered on `~/response`; unplugging the device shows on `~/buttons` and the node goes on.
@Suite struct ButtonIntegrationTests {
    static let bridgeTopic = "zigbee2mqtt/bedside_button"

    /// The node's buttons: `top` on the FIFO (KEY_ENTER), `bedside` over MQTT.
    static func yaml(fifo: String) -> String {
        """
        buttons:
          - id: top
            input: {device: \(fifo), key: KEY_ENTER}
          - id: bedside
            mqtt: {topic: \(bridgeTopic), field: action}
        """
    }

    final class Fifo {
        let directory: URL
        let path: String
        var fd: Int32 = -1

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-buttons-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            path = directory.appendingPathComponent("event0").path
            guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo failed") }
        }

        /// Plugs the "device" in: the node has the FIFO open for reading (its `~/buttons` said so).
        func plug() throws {
            fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
        }

        func send(_ events: [InputEvent]) throws {
            let bytes = events.flatMap(\.record)
            guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { throw TestFailure("write failed") }
        }

        func unplug() {
            close(fd)
            fd = -1
        }

        deinit {
            if fd >= 0 { close(fd) }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static let enter = InputKey("KEY_ENTER")!
    static let syn = InputEvent(type: 0, code: 0, value: 0)

    func buttonStatus(_ message: TestClient.Received, _ id: String) -> String? {
        message.json?.arrayValue?.first { $0["id"] == .string(id) }?["status"]?.stringValue
    }

    /// A node with the two buttons, started, its FIFO open for reading (`~/buttons` says `top` is
    /// connected), and that FIFO plugged in; `buttons` is that `~/buttons`. The caller shuts the rig
    /// down and kills the node.
    func startedNode() async throws -> (fifo: Fifo, rig: AlarmRig, node: NodeProcess, root: String, buttons: TestClient.Received) {
        let fifo = try Fifo()
        let rig = try await AlarmRig()
        let node = try NodeProcess(brokerPort: rig.broker.port, yamlExtra: Self.yaml(fifo: fifo.path))
        let root = rig.root(node)
        let mark = rig.client.messages.count
        try await rig.start(node)
        let buttons = try await rig.client.waitFor("\(root)/buttons", after: mark) { self.buttonStatus($0, "top") == "connected" }
        try fifo.plug()
        return (fifo, rig, node, root, buttons)
    }

    @Test func localAndZigbeeButtonsSnoozeAndDismissAndSurviveUnplugging() async throws {
        let (fifo, rig, node, root, buttons) = try await startedNode()
        defer { rig.shutdown() }
        defer { node.killHard() }

        // ~/buttons: both, with the default actions; the FIFO is open (connected).
        let list = try #require(buttons.json?.arrayValue)
        #expect(list.map { $0["id"] } == ["top", "bedside"])
        #expect(list[1]["source"] == "mqtt" && list[1]["status"] == "connected" && list[1]["error"] == .null)
        #expect(list[0]["source"] == "input" && list[0]["press"] == "snooze_or_speak" && list[0]["double"] == "noise_toggle")
        #expect(list[0]["hold"] == "dismiss")

        try await rig.ok(node, "alarm/add", #"{"id": "wake", "time": "04:00", "repeat": "daily", "label": "Wake"}"#)

        // Zigbee2MQTT: single snoozes, hold dismisses.
        try await rig.ok(node, "alarm/test", "wake")
        var mark = rig.client.messages.count
        rig.client.publish(Self.bridgeTopic, #"{"action": "single", "battery": 90, "linkquality": 120}"#)
        let event = try #require(try await rig.client.waitFor("\(root)/button/event", after: mark).json)
        #expect(event["button"] == "bedside" && event["gesture"] == "press" && event["action"] == "snooze_or_speak")
        #expect(event["at"]?.stringValue != nil)
        let snoozed = try #require(try await rig.client.waitFor("\(root)/response", after: mark).json)
        #expect(snoozed["ok"] == true && snoozed["command"] == "alarm/snooze", "\(snoozed.serialized)")
        #expect(try await rig.retained(node, "alarm")["state"] == "snoozed")
        mark = rig.client.messages.count
        rig.client.publish(Self.bridgeTopic, #"{"action": "hold"}"#)
        let dismissed = try #require(try await rig.client.waitFor("\(root)/response", after: mark).json)
        #expect(dismissed["ok"] == true && dismissed["command"] == "alarm/dismiss", "\(dismissed.serialized)")
        #expect(try await rig.client.waitFor("\(root)/alarm/event", after: mark).json?["event"] == "dismissed")
        // A bridge's other reports (no action, an unknown one) are no gesture.
        mark = rig.client.messages.count
        rig.client.publish(Self.bridgeTopic, #"{"battery": 89}"#)
        rig.client.publish(Self.bridgeTopic, #"{"action": "triple"}"#)
        try await rig.barrier(node)
        #expect(rig.messages(node, "button/event", after: mark).isEmpty)

        // The local button: a press (decided once no double can follow) snoozes ...
        try await rig.ok(node, "alarm/test", "wake")
        mark = rig.client.messages.count
        try fifo.send([.key(Self.enter, 1), Self.syn, .key(Self.enter, 0), Self.syn])
        let local = try #require(try await rig.client.waitFor("\(root)/button/event", after: mark).json)
        #expect(local["button"] == "top" && local["gesture"] == "press")
        let localSnooze = try #require(try await rig.client.waitFor("\(root)/response", after: mark).json)
        #expect(localSnooze["command"] == "alarm/snooze" && localSnooze["ok"] == true, "\(localSnooze.serialized)")
        // ... and a hold (fired while the key is down, auto-repeating) dismisses.
        mark = rig.client.messages.count
        try fifo.send([.key(Self.enter, 1), Self.syn, .key(Self.enter, 2), Self.syn])
        let hold = try #require(try await rig.client.waitFor("\(root)/button/event", after: mark).json)
        #expect(hold["button"] == "top" && hold["gesture"] == "hold" && hold["action"] == "dismiss")
        try fifo.send([.key(Self.enter, 0), Self.syn])
        #expect(try await rig.client.waitFor("\(root)/alarm/event", after: mark).json?["event"] == "dismissed")

        // Unplugged: ~/buttons says so, the node answers commands, and the device is found again.
        mark = rig.client.messages.count
        fifo.unplug()
        let missing = try await rig.client.waitFor("\(root)/buttons", after: mark) { self.buttonStatus($0, "top") == "missing" }
        #expect(missing.json?.arrayValue?.first?["error"] == "unplugged")
        try await rig.barrier(node)
        try await rig.client.waitFor("\(root)/buttons", after: mark) { self.buttonStatus($0, "top") == "connected" }
        try fifo.plug()
        mark = rig.client.messages.count
        try fifo.send([.key(Self.enter, 1), Self.syn, .key(Self.enter, 0), Self.syn])
        let again = try #require(try await rig.client.waitFor("\(root)/button/event", after: mark).json)
        #expect(again["button"] == "top" && again["gesture"] == "press")
        // Not ringing: snooze_or_speak speaks the time (a command this node answers on ~/response).
        let speak = try #require(try await rig.client.waitFor("\(root)/response", after: mark).json)
        #expect(speak["command"] == "speak/time", "\(speak.serialized)")
    }

    @Test func learnModeNamesTheKeysPressed() async throws {
        let (fifo, rig, node, root, _) = try await startedNode()
        defer { rig.shutdown() }
        defer { node.killHard() }

        let learning = try await rig.ok(node, "buttons/learn", "")
        #expect(learning["seconds"] == 30)
        let mark = rig.client.messages.count
        try fifo.send([.key(InputKey("KEY_VOLUMEUP")!, 1), Self.syn, .key(InputKey("KEY_VOLUMEUP")!, 0), Self.syn])
        let learned = try #require(try await rig.client.waitFor("\(root)/button/event", after: mark).json)
        #expect(learned["button"] == .null && learned["key"] == "KEY_VOLUMEUP")
    }

    /// `speech.confirm_buttons`: after a local button's command succeeded, the node says what it did
    /// (its log names the words and, once eSpeak NG made them, the utterance's length); the same
    /// command over MQTT says nothing.
    @Test func aButtonsActionIsSaidBack() async throws {
        let (fifo, rig, node, root, _) = try await startedNode()
        defer { rig.shutdown() }
        defer { node.killHard() }
        try await rig.ok(node, "alarm/add", #"{"id": "wake", "time": "04:00", "repeat": "daily", "snooze_minutes": 5}"#)
        try await rig.ok(node, "alarm/test", "wake")

        // A press while it rings: snoozed, and said with the time it rings again (24-hour style, UTC).
        let mark = rig.client.messages.count
        try fifo.send([.key(Self.enter, 1), Self.syn, .key(Self.enter, 0), Self.syn])
        let snoozed = try #require(try await rig.client.waitFor("\(root)/response", after: mark).json)
        #expect(snoozed["command"] == "alarm/snooze" && snoozed["ok"] == true, "\(snoozed.serialized)")
        let state = try await rig.client.waitFor("\(root)/alarm", after: mark) { $0.json?["state"] == "snoozed" }
        let until = try #require(state.json?["snooze_until"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
        let time = MinuteBoundary.clockTime(until)
        let said = "Snoozed until \(Int(time.prefix(2))!):\(time.suffix(2))"
        let line = try await node.logLine { $0.contains("button confirmation") && $0.contains("text=\(said)") }
        #expect(line.contains("button=top"), "\(line)")
        // eSpeak NG made it: the utterance the confirmation asked for was spoken.
        let speech = try #require(line.split(separator: " ").first { $0.hasPrefix("speech=") })
        let spoken = try await node.logLine { $0.contains(" spoken") && $0.contains(String(speech)) }
        #expect(spoken.contains("seconds="), "\(spoken)")

        // Over MQTT the same kind of command is answered and not said.
        try await rig.ok(node, "noise/set", "TOGGLE")
        try await rig.barrier(node)
        #expect(node.log.components(separatedBy: "button confirmation").count == 2)
        // A double press toggles the noise back, and says so.
        try fifo.send([.key(Self.enter, 1), Self.syn, .key(Self.enter, 0), Self.syn, .key(Self.enter, 1), Self.syn, .key(Self.enter, 0), Self.syn])
        _ = try await node.logLine { $0.contains("button confirmation") && $0.contains("text=Noise off") }
    }
}
