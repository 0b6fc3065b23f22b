import Foundation
import Glibc
import Testing
@testable import NoiseClockNode

/// A datagram socket bound where systemd's would be: a path, or an abstract name (`@...`).
final class NotifySocketListener {
    let fd: Int32
    let address: String

    init(abstract: Bool) throws {
        let name = "noiseclock-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        address = abstract ? "@" + name : NSTemporaryDirectory() + name + ".sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard result == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EINVAL) }
    }

    deinit {
        close(fd)
        if !address.hasPrefix("@") { unlink(address) }
    }

    /// The next datagram, or nil when none is waiting (unix datagrams arrive before `sendto` returns).
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}

@Suite("systemd notifier")
struct SystemdNotifierTests {
    @Test("sends each notification as one datagram", arguments: [false, true])
    func sendsDatagrams(abstract: Bool) throws {
        let listener = try NotifySocketListener(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        #expect(notifier.isEnabled)
        try notifier.ready(status: "online\nat broker")
        #expect(listener.receive() == "READY=1\nSTATUS=online at broker")
        try notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        try notifier.status("reconnecting")
        #expect(listener.receive() == "STATUS=reconnecting")
        try notifier.stopping()
        #expect(listener.receive() == "STOPPING=1")
        #expect(listener.receive() == nil)
    }

    @Test("without NOTIFY_SOCKET nothing is sent and nothing fails")
    func disabledOutsideSystemd() throws {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        try notifier.ready()
        try notifier.watchdog()
    }

    @Test("a socket nobody listens on is an error to log")
    func unreachableSocket() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify.sock"])
        #expect(throws: SystemdNotifyError.self) { try notifier.ready() }
    }

    @Test("the watchdog interval is half of WATCHDOG_USEC, only for this process", arguments: [
        (["WATCHDOG_USEC": "30000000"], Duration.seconds(15)),
        (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"], Duration.seconds(15)),
        (["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "43"], nil),
        (["WATCHDOG_USEC": "0"], nil),
        (["WATCHDOG_USEC": "soon"], nil),
        ([:], nil),
    ] as [([String: String], Duration?)])
    func watchdogInterval(environment: [String: String], expected: Duration?) {
        let notifier = SystemdNotifier(environment: environment.merging(["NOTIFY_SOCKET": "@x"]) { a, _ in a }, processID: 42)
        #expect(notifier.watchdogInterval == expected)
    }
}
