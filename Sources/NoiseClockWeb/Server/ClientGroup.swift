#if canImport(Glibc)
import Glibc
#endif

/// Whom the per-client limits count (connections, event streams, the throttle): an IPv4 address,
/// or an IPv6 address's /64. One home network's host gets a whole /64 and picks its addresses in
/// it at will (privacy addresses), so with `web.host: ::` counting single IPv6 addresses would
/// give one host unlimited slots and unlimited guesses. An IPv4 client of a dual-stack socket
/// (`::ffff:192.168.1.23`) is its IPv4 address.
enum ClientGroup {
    static func of(_ address: String) -> String {
        var v6 = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: &v6) { raw in for index in 0..<16 { bytes[index] = raw[index] } }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

/// The global budget beside the per-client one: when every connection slot is taken, a newcomer
/// takes the slot of the oldest half-sent request (its head not complete) of the client holding
/// the most half-sent requests, if that client holds more than the newcomer's. So clients that
/// stall requests from many addresses cannot lock out a client that sends whole requests
/// (`/healthz` probes, the signed-in face): they only push each other out.
enum ConnectionBudget {
    struct HalfSent: Equatable {
        var id: UInt64
        var group: String
    }

    /// The connection to close for `newcomer`, nil when none may be (the newcomer is refused).
    /// `halfSent` in any order; ids grow with age (the smallest is the oldest).
    static func victim(among halfSent: [HalfSent], for newcomer: String) -> UInt64? {
        var byGroup: [String: [UInt64]] = [:]
        for entry in halfSent { byGroup[entry.group, default: []].append(entry.id) }
        let mine = byGroup[newcomer]?.count ?? 0
        // The heaviest client; of equals, the one whose oldest request is oldest (no flapping by hash order).
        let heaviest = byGroup.max { a, b in
            a.value.count != b.value.count ? a.value.count < b.value.count : (a.value.min() ?? 0) > (b.value.min() ?? 0)
        }
        guard let heaviest, heaviest.value.count > mine else { return nil }
        return heaviest.value.min()
    }
}
