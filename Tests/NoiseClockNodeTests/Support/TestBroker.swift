import Foundation
import Synchronization
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

/// A loopback port no other test (in this process or another) will be handed while this one starts its listener.
///
/// A port that bind(0) found free is free only until someone else asks: parallel suites and their clients' outgoing
/// connections draw from the same ephemeral range, and one CI run lost a mosquitto to that race. So the port comes
/// from below the ephemeral range (no outgoing connection takes it), and each one is claimed with a lock file that
/// this process holds until it exits: no other suite (nor the browser rig, scripts/loopback_port.py) takes it.
/// (Leaving the port in TIME_WAIT would not do: mosquitto 2.0 binds without SO_REUSEADDR.)
func freeLoopbackPort() throws -> Int {
    try PortReservations.shared.claim()
}

final class PortReservations: Sendable {
    static let low = 20_000
    static let span = 12_000 // up to 31 999, below Linux's ephemeral range (32 768 – 60 999)
    static let lockDirectory = "/tmp/noiseclock-port-locks"
    static let shared = PortReservations()
    private struct Claims {
        /// Spread by process id so parallel suites start apart, then onward.
        var next = low + Int(getpid()) * 379 % span
        var heldLocks: [Int32] = []
    }

    private let claims = Mutex(Claims())

    func claim() throws -> Int {
        try claims.withLock { claims throws -> Int in try claim(&claims) }
    }

    private func claim(_ claims: inout Claims) throws -> Int {
        // Shared by every user's test runs (root's and a newcomer's): world-writable and sticky,
        // whatever the umask (chmod fails harmlessly where another user made it).
        mkdir(Self.lockDirectory, 0o777)
        chmod(Self.lockDirectory, 0o1777)
        for _ in 0..<Self.span {
            let port = claims.next
            claims.next = Self.low + (claims.next - Self.low + 1) % Self.span
            guard let fd = lockFile(for: port) else { continue }
            if isUnbound(port) {
                claims.heldLocks.append(fd)
                return port
            }
            close(fd)
        }
        throw TestFailure("no free loopback port in \(Self.low)..<\(Self.low + Self.span)")
    }

    private func lockFile(for port: Int) -> Int32? {
        let path = "\(Self.lockDirectory)/\(port)"
        // Another user's lock file (0644 under its umask) is opened read-only: flock needs no write access.
        var fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        if fd >= 0 { _ = fchmod(fd, 0o666) } else { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Nothing else (a program outside the tests) holds the port: a plain bind succeeds.
    /// CLOEXEC: another test of this process starting a child in the moment the probe is bound
    /// would otherwise hand the bound socket to that child for its whole life, and the port's
    /// owner would find it "already in use" (WebAPITests' node did so once in make test).
    private func isUnbound(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

func canConnect(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    var address = loopbackAddress(port: port)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

func makeTemporaryDirectory(prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
