import Glibc

/// A TCP listener on a loopback port the kernel picks, which never accepts: the kernel completes
/// each connection and nobody answers (a server that hangs), and nobody else can bind the port.
/// Closed with the object.
public final class LoopbackListener: Sendable {
    public let port: Int
    private let fd: Int32

    public init(backlog: Int32 = 4) throws {
        // CLOEXEC: a process the test starts must not inherit (and so hold) the port itself.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("no socket: \(String(cString: strerror(errno)))") }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TestFailure("cannot listen on loopback: \(reason)")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
