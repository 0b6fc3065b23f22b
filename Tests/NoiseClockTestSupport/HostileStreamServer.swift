import Foundation
import Glibc

/// The tests' hostile stream server (scripts/hostile_stream_server.py, Python's HTTP server) on a
/// loopback port of its own: playlists and segments as an attacker writes them (its docstring
/// lists them). Every request it answers is logged, so a test counts them (`requests`).
public final class HostileStreamServer: @unchecked Sendable {
    // @unchecked Sendable: set in init, then only read (the process is stopped by its pid).
    static let script = packageRoot.appendingPathComponent("scripts/hostile_stream_server.py").path

    public let port: Int
    let log: String
    private let process = Process()

    public init() throws {
        port = try freeLoopbackPort()
        log = NSTemporaryDirectory() + "noiseclock-hostile-\(getpid())-\(port).log"
        _ = FileManager.default.createFile(atPath: log, contents: Data())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // Endless segments at 4 MB/s: 20 (the issue's) took a core from the stage's timing tests.
        process.arguments = [Self.script, String(port), log, "4"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // FFmpeg makes its tone first: up to 15 s on a loaded machine.
        for _ in 0..<300 {
            if canConnect(port: port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw TestFailure("the hostile stream server did not listen on \(port)")
    }

    deinit {
        stop()
        unlink(log)
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests answered so far whose path starts with `prefix` ("" for all).
    public func requests(_ prefix: String = "") -> Int {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0.split(separator: " ").last?.hasPrefix(prefix) ?? false }.count
    }

    /// SIGTERM to its own process (by pid), then up to 2 s for it to go.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
