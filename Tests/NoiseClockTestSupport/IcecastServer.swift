import Foundation
import Glibc

/// A real Icecast 2 (Debian's `icecast2`) on a loopback port of its own, with its configuration
/// and logs in a temporary directory, fed by a real encoder (FFmpeg's command line): by default a
/// 440 Hz tone as 128 kb/s MP3 on `/jazz.mp3`. Its encoder can be stopped alone (`stopSource`: the
/// station goes off the air). Every process it started is stopped (by its pid) in `stop()`.
public final class IcecastServer {
    public let port: Int
    public let directory: String
    private var processes: [Process] = []
    private var source: Process?

    public static let sourcePassword = "srcpw", adminPassword = "adminpw"

    /// `burstSize`: the bytes Icecast sends a new listener at once (65535: about 4 s of 128 kb/s).
    public init(burstSize: Int = 65535) throws {
        port = try freeLoopbackPort()
        var template = Array("/tmp/noiseclock-icecast-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        chmod(directory, 0o777)  // icecast2 drops to its own user when started as root
        let owner = getuid() == 0 ? "<changeowner><user>icecast2</user><group>icecast</group></changeowner>" : ""
        let config = """
            <icecast><location>test</location><admin>test@localhost</admin>
            <limits><clients>20</clients><sources>4</sources><source-timeout>10</source-timeout><burst-size>\(burstSize)</burst-size></limits>
            <authentication><source-password>\(Self.sourcePassword)</source-password><admin-user>admin</admin-user>
            <admin-password>\(Self.adminPassword)</admin-password></authentication>
            <hostname>127.0.0.1</hostname><listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
            <paths><basedir>/usr/share/icecast2</basedir><logdir>\(directory)</logdir><webroot>/usr/share/icecast2/web</webroot>
            <adminroot>/usr/share/icecast2/admin</adminroot></paths>
            <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
            <security><chroot>0</chroot>\(owner)</security></icecast>
            """
        _ = FileManager.default.createFile(atPath: directory + "/icecast.xml", contents: Data(config.utf8))
        try start("/usr/bin/icecast2", ["-c", directory + "/icecast.xml"])
        // Icecast says nothing when it listens: its port is polled, to a deadline long enough for a
        // loaded machine (5 s was missed once in CI's stream stage).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if canConnect(port: port) { return }
            usleep(50_000)
        }
        throw TestFailure("icecast2 did not listen on \(port) within 30 s (see \(directory)/error.log)")
    }

    /// Starts the encoder on `mount` (a 440 Hz tone, MP3 at 128 kb/s, in real time).
    public func startSource(mount: String = "/jazz.mp3") throws {
        try startSource(mount: mount, encoder: ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"])
    }

    /// Starts FFmpeg feeding a tone (440 Hz unless told, amplitude 1/8) to `mount` with `encoder`'s arguments.
    public func startSource(mount: String, encoder: [String], rate: Int = 44_100, frequency: Int = 440) throws {
        source = try start("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(rate)",
        ] + encoder + ["icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(mount)"])
    }

    /// Starts FFmpeg looping `file` to `mount` byte for byte in real time (`-c:a copy`): a stream
    /// made once by an encoder Debian lacks (Tests/Fixtures/he-aac).
    public func startLoop(mount: String, file: String, contentType: String, format: String) throws {
        source = try start("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", file, "-c:a", "copy", "-content_type", contentType, "-f", format,
            "icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(mount)",
        ])
    }

    /// Stops the encoder started last (SIGKILL to its pid: it is cut off, as a source that dies):
    /// Icecast drops the mount's listeners, and `startSource` brings it back on the same address.
    public func stopSource() {
        guard let source, source.isRunning else { return }
        kill(source.processIdentifier, SIGKILL)
        source.waitUntilExit()  // SIGKILL cannot be refused: its exit is the signal
    }

    /// Runs a command of the test's own to its end (an encoder writing a file): its exit status.
    @discardableResult
    public func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Self.process(path, arguments)
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Starts a process that the server stops with itself (an HLS encoder, a plain HTTP server).
    @discardableResult
    public func start(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Self.process(path, arguments)
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        processes.append(process)
        return process
    }

    /// `path` with `arguments`, its output thrown away, not started yet.
    private static func process(_ path: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        return process
    }

    public var adminURL: String { "http://admin:\(Self.adminPassword)@127.0.0.1:\(port)/admin" }

    public func url(_ mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

    /// SIGTERM to each of its own processes (by pid), then up to 2 s for them to go.
    public func stop() {
        for process in processes.reversed() where process.isRunning { kill(process.processIdentifier, SIGTERM) }
        for _ in 0..<40 where processes.contains(where: \.isRunning) { usleep(50_000) }
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        processes = []
    }

    deinit { stop() }
}
