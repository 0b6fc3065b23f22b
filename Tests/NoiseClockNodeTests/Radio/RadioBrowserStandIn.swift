import Foundation
import Glibc

/// The tests' Radio Browser (Tests/Fixtures/radio-browser/directory_server.py, Python's own HTTP
/// server) on a loopback port of its own: `/json/stations/search`, `/json/stations/byuuid/<id>`
/// and `/json/url/<id>` as Radio Browser documents them, stations that really play
/// (`/stream/*.mp3`), and controls to fall silent, move a station and count requests.
/// Stopped (by its pid) in `stop()`: the directory down, connections refused.
final class RadioBrowserStandIn {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/radio-browser/directory_server.py").path
    /// Its stations' ids (see the script).
    static let swissJazz = "96062a7b-0601-11e8-ae97-52543be04c81"
    static let classic = "b2c3d4e5-0601-11e8-ae97-52543be04c81"
    static let moving = "d4e5f6a7-0601-11e8-ae97-52543be04c81"

    let port: Int
    private let process = Process()

    init() async throws {
        port = try freeLoopbackPort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if (try? await stats()) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("directory_server.py did not answer within 5 s")
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The node's environment: this directory as `stream.directory_url`.
    var environment: [String: String] { ["NOISECLOCK_STREAM_DIRECTORY_URL": url] }

    func control(_ path: String) async throws -> [String: Any] {
        let request = "GET /control/\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        let reply = try await WebTestClient.raw(port: port, Array(request.utf8), timeout: 5)
        guard reply.status == 200, let json = reply.json else { throw TestFailure("stand-in /control/\(path): \(reply.status) \(reply.text)") }
        return json
    }

    /// `searches`, `byuuid`, `clicks` ({id: n}), `user_agents`, `last_search` (the query's values).
    func stats() async throws -> [String: Any] { try await control("stats") }

    func setSilent(_ silent: Bool) async throws { _ = try await control("silent?on=\(silent ? 1 : 0)") }

    /// The directory lists the station at `path` on this server from now.
    func move(_ id: String, to path: String) async throws {
        let target = (url + path).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        _ = try await control("move?id=\(id)&url=\(target)")
    }

    /// SIGTERM to its pid, then up to 2 s for it to go (then SIGKILL).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
