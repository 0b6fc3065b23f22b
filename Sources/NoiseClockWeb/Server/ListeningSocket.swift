#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The listening TCP socket and the accepted ones, non-blocking, through the plain socket calls.
enum ListeningSocket {
    /// Connections the kernel holds before they are accepted (64 stalled `ab -c 200`; the
    /// kernel caps it at net.core.somaxconn, 4096 on Debian 12).
    static let backlog: Int32 = 1024

    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// errno of a failed bind or listen (`EADDRINUSE`: another socket has the port).
        var code: Int32 = 0
    }

    /// A socket listening on `host:port` (IPv4 or IPv6 numeric address, or localhost).
    static func open(host: String, port: Int) throws(Failure) -> Int32 {
        let address = host == "localhost" ? "127.0.0.1" : host
        let family = address.contains(":") ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, address, &socketAddress.sin6_addr) == 1 else { throw notAnAddress(fd, host, "IPv6") }
            bound = bind(fd, to: socketAddress)
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else { throw notAnAddress(fd, host, "IPv4") }
            bound = bind(fd, to: socketAddress)
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: String(cString: strerror(code)), code: code)
        }
        return fd
    }

    /// `bind` for either family's socket address (`sockaddr_in`, `sockaddr_in6`).
    private static func bind<Address>(_ fd: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    /// Closes the new socket and says that `host` is no address of the family it looked like.
    private static func notAnAddress(_ fd: Int32, _ host: String, _ family: String) -> Failure {
        close(fd)
        return Failure(description: "\(host) is not an \(family) address")
    }

    /// The next waiting connection and its peer's address; nil when none is waiting.
    static func accept(_ listener: Int32) -> (fd: Int32, address: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            }
        }
        guard fd >= 0 else { return nil }
        return (fd, peerAddress(storage))
    }

    private static func peerAddress(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        let converted: UnsafePointer<CChar>? = withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var raw = address.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            }
        }
        guard converted != nil else { return "unknown" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Whether the web app could listen on its address now (`noiseclock doctor`), by listening and
/// closing again through the server's own socket code.
public enum WebPortProbe {
    public enum Outcome: Sendable, Equatable {
        case free
        /// Another socket listens there (`EADDRINUSE`).
        case inUse
        case failed(String)
    }

    public static func probe(host: String, port: Int) -> Outcome {
        do {
            close(try ListeningSocket.open(host: host, port: port))
            return .free
        } catch {
            return error.code == EADDRINUSE ? .inUse : .failed(error.description)
        }
    }
}
