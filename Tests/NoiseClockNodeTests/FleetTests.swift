import Foundation
import Glibc
import NoiseClockCore
import Testing

/// `noiseclock fleet` against 20 real nodes on one mosquitto: two cannot open their sound
/// device, one has stopped; the table says exactly that and the exit status is 1.
@Suite struct FleetTests {
    /// Runs `noiseclock fleet` with `arguments`; its stdout and exit status.
    static func fleet(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let directory = try makeTemporaryDirectory(prefix: "fleet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("out").path
        let child = try ChildProcess(path: NodeProcess.binary.path, arguments: ["fleet"] + arguments,
                                     environment: ProcessInfo.processInfo.environment, logPath: log)
        guard let status = child.wait(timeout: 30) else { throw TestFailure("fleet did not finish") }
        return (try String(contentsOfFile: log, encoding: .utf8), status)
    }

    @Test func twentyNodesTwoNotReadyOneOffline() async throws {
        let alsa = try makeTemporaryDirectory(prefix: "alsa")
        defer { try? FileManager.default.removeItem(at: alsa) }
        // One speaker every node can open (a `null` PCM: opens, takes samples, never blocks).
        try "pcm.nc_fleet_speaker { type null }\n".write(to: alsa.appendingPathComponent("asoundrc"), atomically: true, encoding: .utf8)
        let broker = try TestBroker()
        let ids = (1...20).map { String(format: "room%02d", $0) }
        let deaf: Set<String> = ["room07", "room13"], stopped = "room20"
        let nodes = try ids.map { id in
            try NodeProcess(brokerPort: broker.port, nodeID: id, environment: [
                "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(alsa.path)/asoundrc",
                "NOISECLOCK_AUDIO_DEVICE": deaf.contains(id) ? "nc_fleet_missing" : "nc_fleet_speaker",
            ])
        }
        let client = try await TestClient(port: broker.port, subscriptions: ["noiseclock/+/alarm", "noiseclock/+/availability",
                                                                            "homeassistant/binary_sensor/+/alarm_ready/config"])
        defer { client.shutdown() }
        for node in nodes {
            try node.writeClockSync("synced")
            try node.start()
        }
        defer { for node in nodes { node.killHard() } }
        // Every node has checked (ready or not) and announced itself.
        for node in nodes {
            let id = node.nodeID
            try await client.waitFor("noiseclock/\(id)/alarm", timeout: 30, where: { $0.json?["ready"]?["ok"]?.boolValue == !deaf.contains(id) })
            try await client.waitFor("homeassistant/binary_sensor/\(id)/alarm_ready/config", timeout: 30)
        }
        let last = try #require(nodes.last)
        last.signal(SIGTERM)
        _ = last.waitForExit()
        try await client.waitFor("noiseclock/\(stopped)/availability", where: { $0.text == "offline" })

        let (table, status) = try Self.fleet(["--host", "127.0.0.1", "--port", "\(broker.port)"])
        #expect(status == 1, "an online node is not ready: \(table)")
        var lines = table.split(separator: "\n").map(String.init)
        #expect(lines.removeFirst().hasPrefix("NODE"))
        #expect(lines.removeLast() == "20 nodes: 19 online, 1 offline; 2 online not ready")
        #expect(lines.count == 20)
        for (id, line) in zip(ids, lines) {
            let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            #expect(cells.first == id)
            #expect(cells[1] == (id == stopped ? "offline" : "online"), "\(line)")
            let ready = deaf.contains(id) ? "READY: audio_unavailable" : "ready"
            #expect(line.contains(deaf.contains(id) ? "NOT " + ready : "  " + ready + "  "), "\(line)")
            #expect(cells[2] != "-", "version from discovery: \(line)")
        }

        let (json, jsonStatus) = try Self.fleet(["--host", "127.0.0.1", "--port", "\(broker.port)", "--json"])
        #expect(jsonStatus == 1)
        let rows = try #require(try JSONParser().parse(Array(json.utf8)).arrayValue)
        #expect(rows.map { $0["id"]?.stringValue } == ids)
        #expect(rows.filter { $0["online"] == false }.map { $0["id"] } == [.string(stopped)])
        #expect(rows.filter { $0["ready"]?["ok"] == false }.map { $0["id"]?.stringValue } == ["room07", "room13"])
        #expect(rows.first { $0["id"] == "room07" }?["ready"]?["problems"] == ["audio_unavailable"])
    }

    /// A refused connection (nothing listens on port 1) is said at once, not after the 10 s a
    /// broker gets to answer; one that takes the connection and never answers still gets them all.
    @Test func aRefusedConnectionIsSaidAtOnceASilentBrokerTimesOut() throws {
        var started = ContinuousClock.now
        let (refused, status) = try Self.fleet(["--host", "127.0.0.1", "--port", "1"])
        let tookRefused = ContinuousClock.now - started
        print("fleet: a refused connection reported after \(tookRefused)")
        #expect(status == 69)
        #expect(refused.contains("Error: cannot connect to 127.0.0.1:1: Connection refused"), "\(refused)")
        #expect(tookRefused < .seconds(3), "a refused connection took \(tookRefused)")

        // A listener that never accepts: the kernel completes the handshake, nothing answers CONNECT.
        let silent = try LoopbackListener()
        started = ContinuousClock.now
        let (timedOut, silentStatus) = try Self.fleet(["--host", "127.0.0.1", "--port", "\(silent.port)"])
        let tookSilent = ContinuousClock.now - started
        print("fleet: a silent broker reported after \(tookSilent)")
        #expect(silentStatus == 69)
        #expect(timedOut.contains("within 10 s"), "\(timedOut)")
        #expect(tookSilent >= .seconds(10))
    }

    @Test func allReadyIsExitZeroAndABadArgumentIsAUsageError() async throws {
        let broker = try TestBroker()
        let (empty, status) = try Self.fleet(["--host", "127.0.0.1", "--port", "\(broker.port)"])
        #expect(status == 0)
        #expect(empty.contains("0 nodes: 0 online, 0 offline; 0 online not ready"))
        #expect(try Self.fleet(["--port", "1883"]).status == 64, "neither --config nor --host")
    }
}
