import Foundation
import Glibc

/// The tests' hostile station server (Tests/Fixtures/hostile-stream/format_server.py, Python's own
/// HTTP server) on a loopback port of its own, with a second port that takes TCP connections and
/// never answers (a TLS server stalled mid-handshake). Its paths: the script's doc string.
/// Stopped (by its pid) in `stop()`.
final class HostileFormatServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile-stream/format_server.py").path
    let port: Int
    let stallPort: Int
    private let process = Process()

    init() throws {
        port = try freeLoopbackPort()
        stallPort = try freeLoopbackPort()  // claimed ports are never handed out twice
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, String(port), String(stallPort)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        for _ in 0..<100 {
            if canConnect(port: port), canConnect(port: stallPort) { break }
            usleep(50_000)
        }
        guard canConnect(port: port) else { throw TestFailure("format_server.py did not listen within 5 s") }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The stalling port as a station's `https` address.
    var stallingTLSURL: String { "https://127.0.0.1:\(stallPort)/live" }

    /// How many requests each path had, and connections the stalling port took (`stall`).
    func requests() -> [String: Int] {
        let read = StreamConnectionTests.read(url("/stats"))
        let object = (try? JSONSerialization.jsonObject(with: Data(read.bytes))) as? [String: Int]
        return object ?? [:]
    }

    /// SIGTERM to its pid, then up to 2 s for it to go (then SIGKILL), as `IcecastServer.stop`.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }
}
