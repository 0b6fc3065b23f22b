import Foundation
import Glibc

/// The real `noiseclock` executable, started with a configuration written for one test.
final class NodeProcess: @unchecked Sendable {
    let nodeID: String
    let directory: URL
    let stateDirectory: URL
    let logFile: URL
    let configFile: URL
    /// The node's test clock: the file named by NOISECLOCK_TEST_CLOCK_FILE (see NodeClock+Test).
    let clockFile: URL
    /// What the clock file says, in milliseconds; the node's time is the wall clock plus this.
    var clockOffsetMilliseconds: Int64 = 0
    private var process: ChildProcess?
    var environment: [String: String]

    /// The package's root, found from this file's path, so tests run from any directory.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["NOISECLOCK_BIN"] { return URL(fileURLWithPath: path) }
        return packageRoot.appendingPathComponent(".build/debug/noiseclock")
    }

    init(brokerPort: Int, nodeID: String = "testnode", yamlExtra: String = "", environment: [String: String] = [:]) throws {
        self.nodeID = nodeID
        directory = try makeTemporaryDirectory(prefix: "node")
        stateDirectory = directory.appendingPathComponent("state")
        logFile = directory.appendingPathComponent("node.log")
        configFile = directory.appendingPathComponent("noiseclock.yaml")
        // A folder of its own: the node watches the clock file's folder.
        clockFile = directory.appendingPathComponent("clock").appendingPathComponent("offset-ms")
        try FileManager.default.createDirectory(at: clockFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        self.environment = environment
        let yaml = """
            node_id: \(nodeID)
            timezone: UTC
            locale: en
            state_dir: \(stateDirectory.path)
            mqtt:
              host: 127.0.0.1
              port: \(brokerPort)
              keepalive_seconds: 5
            audio:
              device: null_noiseclock_test
            battery:
              path: \(directory.appendingPathComponent("no-power-supply").path)
            stream:
              allow_local_addresses: true
            \(yamlExtra)
            """
        try yaml.write(to: configFile, atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: NodeProcess.binary.path) else {
            throw TestFailure("no noiseclock binary at \(NodeProcess.binary.path): run `swift build` first (make test does)")
        }
    }

    /// The nodes' seed for their random choices unless the test run's environment gives NOISECLOCK_TEST_SEED.
    static let seed: UInt64 = 20_261_125

    func start() throws {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("NOISECLOCK_") }
        env["NOISECLOCK_LOG_LEVEL"] = env["NOISECLOCK_LOG_LEVEL"] ?? "debug"
        env["NOISECLOCK_TEST_CLOCK_FILE"] = clockFile.path
        // The node's noise is the same on every run (its log says so, with the seed), so level and
        // spectrum checks on captured audio cannot pass or fail by the noise's chance.
        env["NOISECLOCK_TEST_SEED"] = ProcessInfo.processInfo.environment["NOISECLOCK_TEST_SEED"] ?? "\(Self.seed)"
        // Nodes run in parallel: the web app (port 8080 by default) only where a test asks for it
        // (`NodeProcess.web(port:)`).
        env["NOISECLOCK_WEB_ENABLED"] = "false"
        for (key, value) in environment { env[key] = value }
        process = try ChildProcess(path: NodeProcess.binary.path, arguments: ["--config", configFile.path], environment: env, logPath: logFile.path)
    }

    /// The environment that turns the web app on, on loopback at `port`, with token access.
    static func web(port: Int, auth: String = "token") -> [String: String] {
        ["NOISECLOCK_WEB_ENABLED": "true", "NOISECLOCK_WEB_HOST": "127.0.0.1", "NOISECLOCK_WEB_PORT": String(port), "NOISECLOCK_WEB_AUTH": auth]
    }

    /// The token the node created (`<state_dir>/web_token`).
    var webToken: String? {
        (try? String(contentsOf: stateDirectory.appendingPathComponent("web_token"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var isRunning: Bool { process?.isRunning ?? false }
    var pid: Int32 { process?.pid ?? 0 }

    func signal(_ signal: Int32) { process?.signal(signal) }

    /// Waits for the process to exit and returns its status (nil on timeout).
    func waitForExit(timeout: Double = 10) -> Int32? {
        guard let process, let status = process.wait(timeout: timeout) else { return nil }
        self.process = nil
        return status
    }

    func killHard() {
        signal(SIGKILL)
        _ = waitForExit()
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    deinit {
        process = nil
        try? FileManager.default.removeItem(at: directory)
    }
}
