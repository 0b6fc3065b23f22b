import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// A stall is judged from when a station's bytes reached the socket (`StreamSockets.arrivedAt`),
/// not from when the player looked: the player sleeps through a batch's wait (0.5 s) without
/// looking, and its next look must still stamp the bytes' own arrival (issue 39: ten looks a
/// second were a tenth of an HE-AAC station's CPU).
@Suite struct StreamSocketsArrivalTests {
    @Test func aLateLookStampsWhenTheBytesArrivedNotWhenItLooked() throws {
        let (client, server) = try Self.connectedPair()
        let sockets = StreamSockets()
        defer {
            _ = sockets.close(client)  // forgotten by it, then closed
            close(server)
        }
        #expect(sockets.opened(client))

        let bytes = [UInt8](repeating: 7, count: 1000)
        let sent = Self.milliseconds()
        #expect(bytes.withUnsafeBytes { send(server, $0.baseAddress, $0.count, 0) } == bytes.count)
        // Until they are in the client's socket (a signal, not a sleep).
        var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1)
        let seen = Self.milliseconds()

        // The player's batch wait: nobody looks for a while.
        Clocks.sleep(seconds: 0.6)
        let looked = Self.milliseconds()
        sockets.look()
        let stamped = sockets.arrivedAt
        print("sent at 0 ms, seen at \(seen - sent) ms, looked at \(looked - sent) ms: stamped at \(stamped - sent) ms")
        // The kernel's time of the bytes (its tick is 4 ms), not the look's (600 ms on).
        #expect(stamped >= sent - 10 && stamped <= seen + 50, "stamped \(stamped - sent) ms after the send, looked at \(looked - sent) ms")

        // The player reads them (libcurl's write callback): nothing new arrived, the stamp stays.
        var buffer = [UInt8](repeating: 0, count: 2000)
        let read = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        #expect(read == bytes.count)
        sockets.received(read)
        #expect(sockets.arrivedAt == stamped)
    }

    private static func milliseconds() -> Int { Int(Clocks.monotonicSeconds() * 1000) }

    /// A connected loopback TCP pair: (the client's socket, the server's).
    private static func connectedPair() throws -> (Int32, Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 4) == 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
        }
        try #require(connected)
        let server = accept(listener, nil, nil)
        try #require(server >= 0)
        return (client, server)
    }
}
