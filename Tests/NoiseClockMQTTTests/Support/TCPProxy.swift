import Glibc
import NoiseClockThreads
import Synchronization

/// A TCP relay on a free loopback port between an `MQTTClient` and the broker. The test can cut
/// the client's connection (the broker sees it end without DISCONNECT, as after a network
/// failure) and refuse new ones, while the broker and the observers stay up. It can also act as
/// a RabbitMQ 3.10 cluster does for a client id whose subscription queue lived on a crashed
/// broker node (`refuseSessions`), and swallow what clients send (`swallow`).
final class TCPProxy: @unchecked Sendable {
    // @unchecked Sendable: `listener` and `target` are immutable; the rest is in `state`.
    private struct State {
        var refusing = false
        /// Client ids whose connections are closed at their first SUBSCRIBE (not passed on).
        var refusedSessions: Set<String> = []
        /// Bytes from clients are read and dropped: a network that lost them.
        var swallowing = false
        var stopped = false
        var links: [(client: Int32, broker: Int32)] = []
        var pumps: [DedicatedThread] = []
    }

    let port: Int
    /// When each connection attempt arrived (accepted or refused), to measure the back-off.
    let attempts = Recorder<ContinuousClock.Instant>()
    /// Each read from a client, as it came: what arrived together.
    let clientReads = Recorder<[UInt8]>()
    /// The client id of every CONNECT, in order.
    let clientIDs = Recorder<String>()
    private let target: Int
    private let listener: Int32
    private let state = Mutex(State())
    private let acceptThread = DedicatedThread(name: "test-proxy")

    init(to target: Int) throws {
        self.target = target
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        listener = fd
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else { throw TestFailure("proxy cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        try acceptThread.start { [self] in acceptLoop() }
    }

    /// Drops every open connection and refuses new ones (accepted, then closed at once).
    func goDown() {
        let links = state.withLock { state in
            state.refusing = true
            return state.links
        }
        for link in links {
            shutdown(link.client, Int32(SHUT_RDWR))
            shutdown(link.broker, Int32(SHUT_RDWR))
        }
    }

    func goUp() { state.withLock { $0.refusing = false } }

    /// From now on a connection under one of `clientIDs` is accepted (CONNACK) and closed at its
    /// SUBSCRIBE, as RabbitMQ 3.10 does when that id's subscription queue has a crashed home node.
    func refuseSessions(of clientIDs: Set<String>) { state.withLock { $0.refusedSessions = clientIDs } }

    func swallow(_ on: Bool) { state.withLock { $0.swallowing = on } }

    /// Ends the accept thread and every relay, and closes all sockets.
    func stop() {
        let alreadyStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !alreadyStopped else { return }
        goDown()
        shutdown(listener, Int32(SHUT_RDWR))  // ends the blocking accept
        acceptThread.join()
        let (pumps, links) = state.withLock { ($0.pumps, $0.links) }
        for pump in pumps { pump.join() }
        for link in links {
            close(link.client)
            close(link.broker)
        }
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            attempts.append(.now)
            let (refusing, stopped) = state.withLock { ($0.refusing, $0.stopped) }
            if stopped { close(client); return }
            if refusing { close(client); continue }
            let broker = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = loopbackAddress(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(broker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(client)
                close(broker)
                continue
            }
            let up = DedicatedThread(name: "test-proxy-up"), down = DedicatedThread(name: "test-proxy-down")
            state.withLock {
                $0.links.append((client, broker))
                $0.pumps += [up, down]
            }
            _ = try? up.start { [self] in relayFromClient(client, to: broker) }
            _ = try? down.start { relay(from: broker, to: client) }
        }
    }
}

extension TCPProxy {
    /// Passes whole packets from the client on, as the fault settings say, until either side ends.
    private func relayFromClient(_ client: Int32, to broker: Int32) {
        var framer = MQTTPacketFramer()
        var clientID = ""
        relay(from: client, to: broker) { bytes in
            clientReads.append(bytes)
            var passed: [UInt8] = []
            for packet in framer.append(bytes) {
                if let id = MQTTPacketFramer.clientID(ofConnect: packet) {
                    clientID = id
                    clientIDs.append(id)
                }
                let (refused, swallowing) = state.withLock { ($0.refusedSessions.contains(clientID), $0.swallowing) }
                // What came before the SUBSCRIBE is handled, as RabbitMQ handles a connection's packets in order.
                if MQTTPacketFramer.type(packet) == 8, refused { return (passed, true) }
                if !swallowing { passed += packet }
            }
            return (passed, false)
        }
    }
}

/// Copies bytes until either side ends, then ends both, so the other direction stops too.
/// `filter` turns what was read into what is sent, and whether to end the connection after it.
private func relay(from source: Int32, to sink: Int32, filter: ([UInt8]) -> (send: [UInt8], end: Bool) = { ($0, false) }) {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    copying: while true {
        let read = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
        if read < 0 && errno == EINTR { continue }
        guard read > 0 else { break }
        let (out, end) = filter(Array(buffer.prefix(read)))
        let count = out.count
        var offset = 0
        while offset < count {
            let written = out.withUnsafeBytes { send(sink, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break copying }
            offset += written
        }
        if end { break }
    }
    shutdown(source, Int32(SHUT_RDWR))
    shutdown(sink, Int32(SHUT_RDWR))
}
