import Foundation
import Glibc
@testable import NoiseClockAudio

/// A real Icecast 2 (Debian's `icecast2`) on a loopback port of its own, with its configuration
/// and logs in a temporary directory, fed by a real encoder (FFmpeg's command line): a 440 Hz
/// tone as 128 kb/s MP3 on `/jazz.mp3`. Stopped (by its own processes) in `stop()`.
final class IcecastServer {
    let port: Int
    let directory: String
    private var processes: [Process] = []

    static let sourcePassword = "srcpw", adminPassword = "adminpw"

    init() throws {
        port = try Self.freePort()
        directory = TestSupport.makeTemporaryDirectory()
        chmod(directory, 0o777)  // icecast2 drops to its own user when started as root
        let owner = getuid() == 0 ? "<changeowner><user>icecast2</user><group>icecast</group></changeowner>" : ""
        let config = """
            <icecast><location>test</location><admin>test@localhost</admin>
            <limits><clients>20</clients><sources>4</sources><source-timeout>10</source-timeout><burst-size>65535</burst-size></limits>
            <authentication><source-password>\(Self.sourcePassword)</source-password><admin-user>admin</admin-user>
            <admin-password>\(Self.adminPassword)</admin-password></authentication>
            <hostname>127.0.0.1</hostname><listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
            <paths><basedir>/usr/share/icecast2</basedir><logdir>\(directory)</logdir><webroot>/usr/share/icecast2/web</webroot>
            <adminroot>/usr/share/icecast2/admin</adminroot></paths>
            <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
            <security><chroot>0</chroot>\(owner)</security></icecast>
            """
        TestSupport.write(config, to: directory + "/icecast.xml")
        try launch("/usr/bin/icecast2", ["-c", directory + "/icecast.xml"])
        try waitForPort()
    }

    /// Starts the encoder on `mount` (a 440 Hz tone, MP3 at 128 kb/s, in real time).
    func startSource(mount: String = "/jazz.mp3") throws {
        try startSource(mount: mount, encoder: ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"])
    }

    /// Starts FFmpeg feeding a 440 Hz tone (amplitude 1/8) to `mount` with `encoder`'s arguments.
    func startSource(mount: String, encoder: [String], rate: Int = 44_100) throws {
        try launch("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate)",
        ] + encoder + ["icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(mount)"])
    }

    /// Starts FFmpeg looping `file` to `mount` byte for byte in real time (`-c:a copy`): a stream
    /// made once by an encoder Debian lacks (Tests/Fixtures/he-aac).
    func startLoop(mount: String, file: String, contentType: String, format: String) throws {
        try launch("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", file, "-c:a", "copy", "-content_type", contentType, "-f", format,
            "icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(mount)",
        ])
    }

    /// Runs a command of the test's own to its end (an encoder writing a file): its exit status.
    @discardableResult
    func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Starts a process that the server stops with itself (an HLS encoder, a plain HTTP server).
    func start(_ path: String, _ arguments: [String]) throws { try launch(path, arguments) }

    var adminURL: String { "http://admin:\(Self.adminPassword)@127.0.0.1:\(port)/admin" }

    func url(_ mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

    /// SIGTERM to each of its own processes (by pid), then up to 2 s for them to go.
    func stop() {
        for process in processes.reversed() where process.isRunning { kill(process.processIdentifier, SIGTERM) }
        for _ in 0..<40 where processes.contains(where: \.isRunning) { usleep(50_000) }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        processes = []
    }

    /// Stops the process started last (the encoder: the station goes off the air, and
    /// `startSource` brings it back on the same address).
    func stopLast() {
        guard let process = processes.popLast(), process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }

    private func launch(_ path: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        processes.append(process)
    }

    private func waitForPort() throws {
        for _ in 0..<100 {
            if Self.accepts(port) { return }
            usleep(50_000)
        }
        throw IcecastError(description: "icecast2 did not listen on \(port) within 5 s (see \(directory)/error.log)")
    }

    struct IcecastError: Error, CustomStringConvertible { var description: String }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A loopback port free now (bound to port 0, read back, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw IcecastError(description: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
