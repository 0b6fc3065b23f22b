import Foundation
import Synchronization
import Glibc

/// A real mosquitto on a free loopback port, for one test. Fails loudly if mosquitto is missing.
public final class TestBroker: @unchecked Sendable {
    public let port: Int
    public let directory: URL
    private var process: ChildProcess?
    private var extraConfig: String

    public init(extraConfig: String = "") throws {
        guard let binary = TestBroker.mosquittoPath else {
            throw TestFailure("mosquitto is not installed: run `make deps` (apt-get install mosquitto)")
        }
        _ = binary
        port = try freeLoopbackPort()
        directory = try makeTemporaryDirectory(prefix: "broker")
        self.extraConfig = extraConfig
        try start()
    }

    public static var mosquittoPath: String? {
        ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public func start() throws {
        let config = directory.appendingPathComponent("mosquitto.conf")
        let text = extraConfig.isEmpty
            ? "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n"
            : extraConfig.replacingOccurrences(of: "$PORT", with: "\(port)")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("mosquitto.log")
        process = try ChildProcess(path: TestBroker.mosquittoPath!, arguments: ["-c", config.path], environment: [:], logPath: log.path)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if canConnect(port: port) { return }
            usleep(20_000)
        }
        throw TestFailure("mosquitto did not start on port \(port)")
    }

    public func stop() {
        guard let process else { return }
        process.signal(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.signal(SIGKILL)
            _ = process.wait()
        }
        self.process = nil
    }

    /// Kills the broker outright (no clean shutdown), as a crash or power cut would.
    public func kill() {
        guard let process else { return }
        process.signal(SIGKILL)
        _ = process.wait()
        self.process = nil
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
