import Foundation
import Glibc
import Synchronization

/// A slow-loris (sockets that send a header line now and then, never the end) and half-sent
/// requests (a head that never ends), all from one loopback address, on a thread of its own. A
/// slot the server closes is opened again after a second, as a real attacker would.
final class WebAttacker: @unchecked Sendable {
    // @unchecked Sendable: `slots` is touched only by the attacker's thread; `control` is locked.
    struct Stats: Sendable {
        var opened = 0
        var refused = 0
        var timedOut = 0
    }

    private struct Control {
        var stopping = false
        var stopped = false
        var stats = Stats()
    }

    let port: Int
    let source: String
    let slowloris: Int
    let halfSent: Int
    private let control = Mutex(Control())

    init(port: Int, source: String, slowloris: Int, halfSent: Int) {
        self.port = port
        self.source = source
        self.slowloris = slowloris
        self.halfSent = halfSent
    }

    func start() {
        Thread.detachNewThread { [self] in run() }
    }

    /// Waits (up to 10 s) until the server has refused the attacker at least once.
    func waitUntilRefused() async throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if control.withLock({ $0.stats.refused }) > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("the attacker was never refused")
    }

    @discardableResult
    func stop() -> Stats {
        control.withLock { $0.stopping = true }
        while !control.withLock({ $0.stopped }) { usleep(10_000) }
        return control.withLock { $0.stats }
    }

    private func run() {
        let count = slowloris + halfSent
        var sockets: [WebSocket?] = Array(repeating: nil, count: count)
        var openedAt = [Date](repeating: .distantPast, count: count)
        while !control.withLock({ $0.stopping }) {
            for index in 0..<count {
                if let socket = sockets[index] {
                    switch socket.peek() {
                    case .open:
                        if index < slowloris { socket.send(Array("X-Slow-\(index): 1\r\n".utf8)) }
                    case .answered(let bytes):
                        let text = String(decoding: bytes, as: UTF8.self)
                        control.withLock {
                            if text.hasPrefix("HTTP/1.1 503") { $0.stats.refused += 1 }
                            if text.hasPrefix("HTTP/1.1 408") { $0.stats.timedOut += 1 }
                        }
                        sockets[index] = nil
                    case .closed:
                        sockets[index] = nil
                    }
                } else if Date().timeIntervalSince(openedAt[index]) >= 1,
                          let socket = try? WebSocket(port: port, timeout: 1, from: source) {
                    openedAt[index] = Date()
                    let head = index < slowloris
                        ? "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        : "POST /api/alarm/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\nX-Half: "
                    socket.send(Array(head.utf8))
                    sockets[index] = socket
                    control.withLock { $0.stats.opened += 1 }
                }
            }
            usleep(200_000)
        }
        sockets = []
        control.withLock { $0.stopped = true }
    }
}
