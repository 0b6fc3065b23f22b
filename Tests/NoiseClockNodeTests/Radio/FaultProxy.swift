import Foundation
import Glibc
import Synchronization

/// A fault proxy of the tests' own on a loopback port, between the node and a station (issue 29):
/// it forwards to the upstream Icecast, or, as its `mode` says, refuses connections (its port
/// closed, every connection cut: the station gone), accepts and never answers, answers 404,
/// answers and then sends nothing (a stall; a stream under way stops mid-stream), sends digital
/// silence (an MP3 of silence, paced as a 128 kb/s stream), or waits before forwarding (a slow
/// station). `mode` may change at any time: connections under way follow it within 50 ms.
final class FaultProxy: @unchecked Sendable {
    // @unchecked Sendable: the mutable state is in `state` (a Mutex); the rest is set in init.
    enum Mode: Sendable, Equatable {
        case forward, refuse, hang, notFound, stall, silence
        /// Forwards, after holding each new connection this long before its response.
        case slowStart(Double)
        /// Forwards this many bytes of each connection's body, then sends nothing (a stall at the ring).
        case forwardThenStall(Int)
    }

    let port: Int
    private let upstreamPort: Int
    /// An MP3 of digital silence (made by FFmpeg), sent in a loop for `.silence`.
    private let silence: [UInt8]
    private struct State {
        var mode: Mode = .forward
        var stopped = false
        var listener: Int32 = -1
        var lastSent: Date?
    }
    private let state = Mutex(State())

    init(upstreamPort: Int, silence: [UInt8]) throws {
        self.upstreamPort = upstreamPort
        self.silence = silence
        port = try freeLoopbackPort()
        try listen()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// When the proxy last handed a byte of a station's stream to the kernel (loopback: it is at
    /// the node's socket then): what a stall is timed from.
    var lastSent: Date? { state.withLock { $0.lastSent } }

    func url(_ mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

    /// The accept loop closes the listener itself when it sees this: closed here, its number could
    /// be reused by another test's socket while the loop still polls and accepts on it (a
    /// `StreamConnectionTests` server once had its connection accepted and cut by a stopped proxy).
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    /// An MP3 of `seconds` of digital silence (mono, 44.1 kHz, 128 kb/s), encoded by FFmpeg.
    static func silentMP3(seconds: Int = 20) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "noiseclock-silence-\(getpid()).mp3"
        defer { unlink(path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", "\(seconds)",
                             "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: path) else {
            throw TestFailure("ffmpeg could not make the silent MP3")
        }
        return [UInt8](data)
    }

    // MARK: - The proxy's threads

    private func listen() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard bound, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw TestFailure("the fault proxy cannot listen on \(port): \(String(cString: strerror(errno)))")
        }
        state.withLock { $0.listener = fd }
    }

    private func acceptLoop() {
        defer {
            let listener = state.withLock { state -> Int32 in
                defer { state.listener = -1 }
                return state.listener
            }
            if listener >= 0 { close(listener) }
        }
        while !stopped {
            let (mode, listener) = state.withLock { ($0.mode, $0.listener) }
            if mode == .refuse {
                // Refused: the port closed (connections under way are cut by their own threads).
                if listener >= 0 {
                    state.withLock { $0.listener = -1 }
                    close(listener)
                }
                usleep(20_000)
                continue
            }
            if listener < 0 {
                if (try? listen()) == nil { usleep(20_000) }
                continue
            }
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            // Not inherited by a process another test starts meanwhile.
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    /// One client: its request head read, then what the mode says, until the mode cuts it.
    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = readHead(client) else { return }
        let mode = self.mode
        switch mode {
        case .refuse: return
        case .hang: holdWhile(client) { $0 == .hang }
        case .notFound: send(client, Array("HTTP/1.0 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\nnot found".utf8))
        case .stall:
            guard send(client, Array("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)) else { return }
            holdWhile(client) { $0 == .stall }
        case .silence:
            guard send(client, Array("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)) else { return }
            sendSilence(client) { $0 == .silence }
        case .forward, .slowStart, .forwardThenStall:
            if case .slowStart(let seconds) = mode { usleep(UInt32(seconds * 1_000_000)) }
            forward(client, request)
        }
    }

    /// Relays the upstream's response; a stall stops the bytes (the connection stays open),
    /// silence replaces them, refuse cuts the connection.
    private func forward(_ client: Int32, _ request: [UInt8]) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(upstream) }
        var address = Self.loopback(upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected, send(upstream, request) else { return }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var forwarded = 0, limit = Int.max
        while !stopped {
            let mode = self.mode
            if case .forwardThenStall(let bytes) = mode { limit = bytes }
            switch mode {
            case .refuse: return
            case .stall, .hang:
                guard Self.isOpen(client) else { return }
                usleep(50_000)
                continue
            case .forwardThenStall where forwarded >= limit:
                guard Self.isOpen(client) else { return }
                usleep(50_000)
                continue
            case .silence:
                sendSilence(client) { $0 == .silence }
                continue
            default: break
            }
            var poller = pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = recv(upstream, &buffer, min(buffer.count, limit - forwarded), 0)
            guard count > 0, send(client, Array(buffer[0..<count])) else { return }
            forwarded += count
            state.withLock { $0.lastSent = Date() }
        }
    }

    /// Whether the client still holds its end (a stalled relay ends with it, so its upstream
    /// listener goes too: Icecast's 20 listeners are not used up by rings long over).
    private static func isOpen(_ client: Int32) -> Bool {
        var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return true }
        var byte: UInt8 = 0
        return recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    private func holdWhile(_ client: Int32, _ holds: (Mode) -> Bool) {
        while !stopped, holds(mode) { usleep(50_000) }
    }

    /// The silent MP3 in a loop at 16,000 bytes a second (128 kb/s), while `holds(mode)`.
    private func sendSilence(_ client: Int32, while holds: (Mode) -> Bool) {
        var offset = 0
        let chunk = 1600
        while !stopped, holds(mode), !silence.isEmpty {
            let end = min(offset + chunk, silence.count)
            guard send(client, Array(silence[offset..<end])) else { return }
            offset = end == silence.count ? 0 : end
            usleep(100_000)
        }
    }

    private func readHead(_ client: Int32) -> [UInt8]? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while head.count < 16_384, !stopped {
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            guard recv(client, &byte, 1, 0) == 1 else { return nil }
            head.append(byte)
            if head.count >= 4, Array(head.suffix(4)) == end { return head }
        }
        return nil
    }

    @discardableResult
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
