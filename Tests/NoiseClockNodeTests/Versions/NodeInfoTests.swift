import Foundation
import Glibc
import NoiseClockCore
import Testing

/// `noiseclock --version`, `~/info` (retained, on a real mosquitto) and Home Assistant's `sw_version`.
@Suite struct NodeInfoTests {
    @Test func versionPrintsTheVersionAndExitsZero() throws {
        let directory = try makeTemporaryDirectory(prefix: "version")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("out").path
        let child = try ChildProcess(path: NodeProcess.binary.path, arguments: ["--version"], environment: [:], logPath: log)
        #expect(child.wait(timeout: 10) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == NoiseClockVersion.current + "\n")
    }

    @Test func infoIsRetainedAndDiscoveryCarriesTheVersion() async throws {
        let online = try await OnlineNode.start(subscribing: ["availability"])
        defer { online.shutdown() }
        // A client that connects afterwards gets it from the broker: retained.
        let late = try await TestClient(port: online.broker.port, subscriptions: ["\(online.root)/info", "homeassistant/#"])
        defer { late.shutdown() }
        let info = try await late.waitFor("\(online.root)/info")
        #expect(info.retain)
        let json = try #require(info.json)
        #expect(json["version"] == .string(NoiseClockVersion.current))
        #expect(json["config_file"] == .string(online.node.configFile.resolvingSymlinksInPath().path))
        #expect(json["state_dir"] == .string(online.node.stateDirectory.resolvingSymlinksInPath().path))
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(json["arch"] == .string(machine))
        let started = try #require(json["started_at"]?.stringValue)
        #expect(started.hasPrefix("20") && started.hasSuffix("+00:00"), "\(started)")
        #expect(json.objectValue?.keys == ["version", "started_at", "config_file", "state_dir", "arch", "safe_mode"])
        #expect(json["safe_mode"] == .null, "a first start is a normal one")

        let config = try await late.waitFor("homeassistant/sensor/\(online.node.nodeID)/next_alarm/config", where: { !$0.payload.isEmpty })
        #expect(config.json?["device"]?["sw_version"] == .string(NoiseClockVersion.current), "\(config.text)")
    }
}
