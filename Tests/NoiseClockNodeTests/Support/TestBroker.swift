import Foundation
import Glibc

/// A real mosquitto on a free loopback port, for one test. Fails loudly if mosquitto is missing.
final class TestBroker: @unchecked Sendable {
    let port: Int
    let directory: URL
    private var process: ChildProcess?
    private var extraConfig: String

    init(extraConfig: String = "") throws {
        guard let binary = TestBroker.mosquittoPath else {
            throw TestFailure("mosquitto is not installed: run `make deps` (apt-get install mosquitto)")
        }
        _ = binary
        port = try freeLoopbackPort()
        directory = try makeTemporaryDirectory(prefix: "broker")
        self.extraConfig = extraConfig
        try start()
    }

    static var mosquittoPath: String? {
        ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func start() throws {
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

    func stop() {
        guard let process else { return }
        process.signal(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.signal(SIGKILL)
            _ = process.wait()
        }
        self.process = nil
    }

    /// Kills the broker outright (no clean shutdown), as a crash or power cut would.
    func kill() {
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

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw TestFailure("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

func canConnect(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

func makeTemporaryDirectory(prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
