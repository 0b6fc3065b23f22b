import Glibc

/// Which addresses a station's connections may reach (mqtt-api v1.4, "Streams are bounded"):
/// none that is loopback or link-local (127.0.0.0/8, ::1, 169.254.0.0/16, fe80::/10; 0.0.0.0 and
/// ::, which reach this host too; IPv4 in IPv6 alike) unless `stream.allow_local_addresses`. Checked
/// on every socket libcurl opens (`StreamConnection`), so a name that resolves there and a redirect
/// that leads there are refused alike (`forbidden_address`): `station/test` told 401 loopback ports
/// apart in 3.8 s. Bound for a thread (a player's, a probe's) by `allowingLocal`; unbound, refused.
enum StreamAddressRule {
    @TaskLocal static var allowsLocal = false

    /// Runs `body` with the rule for every connection it makes on this thread.
    static func allowingLocal<T>(_ allows: Bool, _ body: () -> T) -> T { $allowsLocal.withValue(allows, operation: body) }

    /// Whether `address` (a socket address libcurl is about to connect to) is loopback or link-local.
    static func isLocal(_ address: UnsafePointer<sockaddr>, length: Int) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return isLocal(ipv4: ip)
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            return isLocal(ipv6: bytes)
        default:
            return true  // a family a station has no business with (a Unix socket)
        }
    }

    static func isLocal(ipv4 ip: UInt32) -> Bool {
        ip >> 24 == 127 || ip >> 16 == 0xA9FE || ip >> 24 == 0
    }

    static func isLocal(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return true }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] <= 1 { return true }  // :: and ::1
        // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (compatible): judged as the IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10..<12].allSatisfy({ $0 == 0xFF }) || bytes[10..<12].allSatisfy({ $0 == 0 }) {
            return isLocal(ipv4: bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        return false
    }
}
