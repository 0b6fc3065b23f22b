/// A station URL's host as written, judged before anything connects (mqtt-api v1.4 "Streams are
/// bounded", Addresses): a loopback or link-local literal, or `localhost`, is refused at
/// `station/add` and `station/update` unless `stream.allow_local_addresses`. A name that resolves
/// to such an address is refused when the player connects (`StreamAddressRule`, every socket).
/// Pure text: no resolver here.
enum StationHost {
    /// The host part of an `http://` or `https://` URL (`isValidURL` held), lower-cased, without
    /// user info, port or an IPv6 literal's brackets.
    static func host(of url: String) -> String {
        let lower = url.lowercased()
        let rest = lower.drop { $0 != ":" }.dropFirst(3)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") { return String(authority.dropFirst().prefix { $0 != "]" }) }
        return String(authority.prefix { $0 != ":" })
    }

    /// 127.0.0.0/8, 0.0.0.0, 169.254.0.0/16, ::1, ::, fe80::/10, their IPv4-mapped forms, `localhost`.
    static func isLocal(_ url: String) -> Bool {
        let host = host(of: url)
        if host == "localhost" || host.hasSuffix(".localhost") || host == "localhost." { return true }
        if host.contains(":") {
            if host == "::1" || host == "::" || host == "0:0:0:0:0:0:0:1" { return true }
            if let mapped = host.split(separator: ":").last, mapped.contains("."), host.hasPrefix("::ffff:") {
                return isLocalIPv4(String(mapped))
            }
            guard let first = host.split(separator: ":").first, first.count == 4, let word = UInt16(first, radix: 16) else { return false }
            return word & 0xFFC0 == 0xFE80
        }
        return isLocalIPv4(host)
    }

    /// A dotted IPv4 literal (four decimal parts) in 127/8, 169.254/16 or 0.0.0.0.
    static func isLocalIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        let octets = parts.compactMap { $0.count <= 3 ? UInt8($0) : nil }
        guard octets.count == 4 else { return false }
        return octets[0] == 127 || (octets[0] == 169 && octets[1] == 254) || octets.allSatisfy { $0 == 0 }
    }
}
