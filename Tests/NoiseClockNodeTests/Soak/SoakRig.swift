import Foundation
import Glibc
import NoiseClockCore
import Testing

/// The soak's bedroom: the real node on the test clock, a real mosquitto, ALSA's `null` PCM
/// (real ALSA, nothing heard), two local buttons on a FIFO of `struct input_event` records
/// (`snooze` on KEY_ENTER, `off` on KEY_ESC, each acting on key-down), a Zigbee2MQTT lamp
/// played by `BridgeSimulator`, a watched sounds folder, and Home Assistant's snooze and dismiss
/// buttons as their discovery configs describe them.
///
/// The node logs at `info`, as installed, into a file on tmpfs (`/dev/shm`, through a symlink
/// at `node.logFile`); the log's own bytes are counted from the file's growth. What it writes
/// to its SD card is counted by the node itself (`StateWriteLedger`: one line per state file
/// written), which does not depend on the file system the test's folder is on.
final class SoakRig: @unchecked Sendable {
    static let lamp = DeviceEndpoint(topic: "zigbee2mqtt/soak_lamp", bridge: .zigbee2mqtt)
    static let snoozeKey = InputKey("KEY_ENTER")!
    static let offKey = InputKey("KEY_ESC")!

    let rig: AlarmRig
    let node: NodeProcess
    let fifo: ButtonIntegrationTests.Fifo
    let bridge: BridgeSimulator
    let sounds: URL
    let logDirectory: URL?
    /// The node's `NOISECLOCK_TEST_WRITE_LEDGER` (outside its folders, so nothing watches it).
    let ledger: URL
    /// Home Assistant's `alarm_snooze` and `alarm_dismiss` button configs (retained discovery).
    let homeAssistantSnooze: JSONObject
    let homeAssistantDismiss: JSONObject
    var root: String { rig.root(node) }
    var client: TestClient { rig.client }

    static func yaml(fifo: String) -> String {
        """
        buttons:
          - {id: snooze, input: {device: \(fifo), key: KEY_ENTER}, press: snooze, double: none, hold: none}
          - {id: "off", input: {device: \(fifo), key: KEY_ESC}, press: dismiss, double: none, hold: none}
        devices:
          light:
            topic: \(lamp.topic)
            protocol: \(lamp.bridge.rawValue)
        """
    }

    /// Starts everything with the node's clock at `clock`, and returns once the node is online,
    /// its FIFO is plugged in and Home Assistant's button configs are known.
    init(clock: Date) async throws {
        fifo = try ButtonIntegrationTests.Fifo()
        rig = try await AlarmRig()
        sounds = try makeTemporaryDirectory(prefix: "soak-sounds")
        ledger = try makeTemporaryDirectory(prefix: "soak-ledger").appendingPathComponent("writes")
        node = try NodeProcess(brokerPort: rig.broker.port, nodeID: "soaknode", yamlExtra: Self.yaml(fifo: fifo.path), environment: [
            "NOISECLOCK_AUDIO_DEVICE": "null", "NOISECLOCK_AUDIO_SOUNDS_DIR": sounds.path, "NOISECLOCK_LOG_LEVEL": "info",
            "NOISECLOCK_TEST_WRITE_LEDGER": ledger.path,
        ])
        logDirectory = try Self.logOnTmpfs(node)
        bridge = try await BridgeSimulator(port: rig.broker.port, device: Self.lamp)
        try node.writeClock(to: clock)
        let mark = rig.client.messages.count
        try await rig.start(node)
        try await rig.client.waitFor("noiseclock/soaknode/buttons", after: mark) { message in
            message.json?.arrayValue?.first { $0["id"] == "snooze" }?["status"] == "connected"
        }
        try fifo.plug()
        let discovery = "homeassistant/button/soaknode"
        let configs = try await TestClient(port: rig.broker.port, subscriptions: ["\(discovery)/+/config"])
        defer { configs.shutdown() }
        func config(_ object: String) async throws -> JSONObject {
            let message = try await configs.waitFor("\(discovery)/\(object)/config")
            guard let object = message.json?.objectValue else { throw TestFailure("not a config: \(message.text)") }
            return object
        }
        homeAssistantSnooze = try await config("alarm_snooze")
        homeAssistantDismiss = try await config("alarm_dismiss")
    }

    /// Points `node.logFile` at a file in a fresh directory on /dev/shm (nil where there is none).
    private static func logOnTmpfs(_ node: NodeProcess) throws -> URL? {
        guard Self.isTmpfs("/dev/shm") else { return nil }
        let directory = URL(fileURLWithPath: "/dev/shm/noiseclock-soak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: node.logFile, withDestinationURL: directory.appendingPathComponent("node.log"))
        return directory
    }

    /// Whether `path` is on tmpfs (its pages are never written back: no `write_bytes`).
    /// (The mount with the longest prefix of the path, from /proc/mounts: Glibc's module has no statfs.)
    static func isTmpfs(_ path: String) -> Bool {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let entries = mounts.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.count > 2 }
        let mount = entries.filter { real == $0[1] || real.hasPrefix($0[1] == "/" ? "/" : "\($0[1])/") }.max { $0[1].count < $1[1].count }
        return mount?[2] == "tmpfs"
    }

    /// A key pressed and released on the FIFO; the node acts on key-down and answers on `~/response`.
    func press(_ key: InputKey) throws {
        let syn = InputEvent(type: 0, code: 0, value: 0)
        try fifo.send([.key(key, 1), syn, .key(key, 0), syn])
    }

    /// Home Assistant's button: `payload_press` through its template to its `command_topic`.
    func pressHomeAssistant(_ config: JSONObject) throws {
        guard let topic = config["command_topic"]?.stringValue else { throw TestFailure("no command_topic in \(config)") }
        client.publish(topic, try HomeAssistantCommandTemplate.press(config))
    }

    /// Stops mosquitto (it keeps nothing: `persistence false`) and starts it again on the same
    /// port; returns once the node is back `online` and the test's client and the lamp's bridge
    /// have their subscriptions again.
    func restartBroker() async throws {
        let mark = client.messages.count
        rig.broker.stop()
        try rig.broker.start()
        // Retained and published after the node's subscriptions: seen by a client that has its own.
        try await client.waitFor("\(root)/availability", timeout: 20, after: mark) { $0.text == "online" }
        try await bridge.sync(timeout: 20)
    }

    func shutdown() {
        bridge.shutdown()
        rig.shutdown()
        node.killHard()
        try? FileManager.default.removeItem(at: sounds)
        try? FileManager.default.removeItem(at: ledger.deletingLastPathComponent())
        if let logDirectory { try? FileManager.default.removeItem(at: logDirectory) }
    }
}

/// What /proc says about the node at one moment.
struct NodeFigures {
    var residentKiB = 0
    /// The anonymous part of it (heap, stacks): what a leak grows.
    var anonymousKiB = 0
    var descriptors: [String] = []
    /// The threads' names (`comm`), sorted.
    var threads: [String] = []
    /// The node's own threads (main, node-loop, audio, mqtt-network, ...): all but libdispatch's
    /// pool workers (`com.apple.root.*-qos*`, which run the Swift tasks), whose number at a given
    /// moment depends on the real time since they last had work: they start on demand and end when idle.
    var ownThreads: [String] { threads.filter { !$0.contains("qos") } }
    /// `/proc/<pid>/io`: bytes handed to write(2) and friends (files, the log, sockets) ...
    var wchar = 0
    /// ... and bytes sent towards the block device (the state files on a disk; 0 on tmpfs).
    var writeBytes = 0
    /// The node's own count (its write ledger): state files written and synced, their bytes,
    /// and the 4 KiB pages they fill (what an SD card is written in; a file of 300 B costs one).
    var stateFiles = 0
    var stateBytes = 0
    var statePages = 0
    /// The size of the node's log.
    var logBytes = 0

    init(pid: Int32, log: URL, ledger: URL) throws {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        residentKiB = Self.field(status, "VmRSS")
        anonymousKiB = Self.field(status, "RssAnon")
        let io = try String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
        wchar = Self.field(io, "wchar")
        writeBytes = Self.field(io, "write_bytes")
        let lines = ((try? String(contentsOf: ledger, encoding: .utf8)) ?? "").split(separator: "\n")
        for bytes in lines.compactMap({ $0.split(separator: " ").last.flatMap { Int($0) } }) {
            stateFiles += 1
            stateBytes += bytes
            statePages += max(1, (bytes + 4095) / 4096)
        }
        threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").map { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .newlines)
        }
        .sorted()
        let fdDirectory = "/proc/\(pid)/fd"
        descriptors = try FileManager.default.contentsOfDirectory(atPath: fdDirectory).map { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fdDirectory)/\(fd)")) ?? "?"
        }
        .map { $0.hasPrefix("socket:") || $0.hasPrefix("anon_inode:") || $0.hasPrefix("pipe:") ? String($0.prefix { $0 != "[" }) : $0 }
        .sorted()
        var info = stat()  // follows the symlink to the log on tmpfs
        logBytes = stat(log.path, &info) == 0 ? Int(info.st_size) : 0
    }

    private static func field(_ text: String, _ name: String) -> Int {
        let line = text.split(separator: "\n").first { $0.hasPrefix("\(name):") }
        return line?.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? -1
    }
}
