import Dispatch
import Foundation
import Glibc

/// A plain HTTP/1.1 client over a real TCP socket, for the web tests: it sends exactly the
/// bytes a test wants (hostile ones too) and reads the answer until the server closes.
/// Blocking calls run on Dispatch, off Swift's cooperative threads.
struct WebReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }
    var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
}

final class WebSocket: @unchecked Sendable {
    let fd: Int32

    /// - Parameter source: the loopback address to connect from (the server's limits are per
    ///   client address: a test plays several clients, or an attacker beside a user).
    init(port: Int, timeout: Double = 10, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // On a failure below, no close here: the object is whole, so `deinit` runs and closes it
        // (closing it here as well closed a number another thread had opened meanwhile: a
        // broker's config file failed to write with EBADF in make test).
        guard bound == 0 else {
            throw TestFailure("cannot bind to \(source): \(String(cString: strerror(errno)))")
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            throw TestFailure("cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Up to `maximum` bytes; empty at end of stream or on time-out.
    func receive(maximum: Int = 65536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Everything until the server closes (or the time-out).
    func receiveAll() -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let chunk = receive()
            if chunk.isEmpty { return all }
            all += chunk
        }
    }
}

enum WebTestClient {
    /// Runs a blocking socket exchange on a thread of its own. Not on `DispatchQueue.global()`: on
    /// Linux its pool is as wide as the cores and grows only when its monitor (about once a second)
    /// sees the threads blocked, so under make test a request queued behind other suites' waits
    /// started up to a second late (a silent directory's 502 timed at 5456 ms, bound 5 s).
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
                        from source: String = "127.0.0.1") async throws -> WebReply {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if headers.keys.contains(where: { $0.lowercased() == "host" }) == false { text += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try await raw(port: port, Array(text.utf8), from: source)
    }

    static func raw(port: Int, _ bytes: [UInt8], timeout: Double = 10, from source: String = "127.0.0.1") async throws -> WebReply {
        try await offload {
            let socket = try WebSocket(port: port, timeout: timeout, from: source)
            socket.send(bytes)
            return try parse(socket.receiveAll())
        }
    }

    static func parse(_ bytes: [UInt8]) throws -> WebReply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw TestFailure("no HTTP answer: \(text.prefix(200))") }
        let lines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw TestFailure("bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyStart = text.utf8.distance(from: text.utf8.startIndex, to: headEnd.upperBound.samePosition(in: text.utf8)!)
        return WebReply(status: status, headers: headers, body: Array(bytes[bodyStart...]))
    }
}

/// A live `/api/events` stream: its head, then events as they come.
final class EventStreamClient: @unchecked Sendable {
    struct Event: Sendable {
        var name: String
        var data: String
    }

    let socket: WebSocket
    private var buffer: [UInt8] = []
    private(set) var status = 0

    init(port: Int, headers: [String: String], from source: String = "127.0.0.1") async throws {
        socket = try WebSocket(port: port, timeout: 1, from: source)
        var text = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        socket.send(Array((text + "\r\n").utf8))
        let deadline = Date().addingTimeInterval(10)
        let socket = self.socket
        var head: [UInt8] = []
        while Date() < deadline {
            head += try await WebTestClient.offload { socket.receive() }
            if let end = Self.find(Array("\r\n\r\n".utf8), in: head) {
                let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
                status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                buffer = Array(head[(end + 4)...])
                return
            }
        }
        throw TestFailure("no event stream head")
    }

    /// The next event (comments and `retry:` skipped), or nil after `timeout` seconds.
    func next(timeout: Double = 10) async throws -> Event? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = Self.find(Array("\n\n".utf8), in: buffer) {
                let block = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                var name = "message"
                var data: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if data.isEmpty { continue }
                return Event(name: name, data: data.joined(separator: "\n"))
            }
            guard Date() < deadline else { return nil }
            let socket = self.socket
            buffer += try await WebTestClient.offload { socket.receive() }
        }
    }

    /// Events until one named `name` passes `predicate`.
    func waitFor(_ name: String, timeout: Double = 10, where predicate: (String) -> Bool = { _ in true }) async throws -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let event = try await next(timeout: deadline.timeIntervalSinceNow), event.name == name, predicate(event.data) { return event }
        }
        throw TestFailure("no \(name) event within \(timeout) s")
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
