#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` headers the node answers (DNS rebinding: a hostile page whose name comes to
/// point at the node must not be served as that name): an IP literal, `localhost`, the machine's
/// host name, that name + `.local`, that name under one of the machine's own DNS search domains
/// (`/etc/resolv.conf` `search`/`domain`), or one of `web.allowed_hosts` (a reverse proxy's
/// name). Anything else gets 421. Never "any name whose first label is the host name": whoever
/// owns a domain's DNS owns every name under it (`bedside.evil.example`).
public struct HostPolicy: Sendable {
    /// The machine's host name as `gethostname` gives it, lower-cased, without a trailing dot
    /// (empty: none known), and its first label.
    let machineName: String
    let shortName: String
    let allowed: Set<String>
    /// The machine's search domains now (read again when resolv.conf changes: DHCP may fill it
    /// after the node started).
    let searchDomains: @Sendable () -> [String]

    public init(machineName: String, allowed: [String], searchDomains: @escaping @Sendable () -> [String] = { [] }) {
        self.machineName = Self.bare(machineName.lowercased())
        shortName = String(self.machineName.split(separator: ".").first ?? "")
        self.allowed = Set(allowed.map { Self.bare($0.lowercased()) })
        self.searchDomains = searchDomains
    }

    public func admits(_ hostHeader: String?) -> Bool {
        guard let hostHeader, let (host, _) = Self.split(hostHeader) else { return false }
        if Self.isIPLiteral(host) { return true }
        let name = Self.bare(host)
        if name.isEmpty { return false }
        if name == "localhost" || allowed.contains(name) { return true }
        guard !shortName.isEmpty else { return false }
        if name == machineName || name == shortName || name == shortName + ".local" { return true }
        // Only the machine's own name under a search domain: the domains are read only for such a name.
        guard name.hasPrefix(shortName + ".") else { return false }
        let domain = name.dropFirst(shortName.count + 1)
        return searchDomains().contains { Self.bare($0.lowercased()) == domain }
    }

    /// `bedside.` → `bedside` (the fully qualified spelling of the same name).
    static func bare(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }

    /// `host[:port]` or `[v6][:port]` → the host (lower-cased, brackets removed) and the port;
    /// nil when malformed.
    static func split(_ value: String) -> (host: String, port: Int?)? {
        let text = value.lowercased()
        var host: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            rest = text[text.index(after: close)...]
        } else {
            let colon = text.firstIndex(of: ":")
            host = text[..<(colon ?? text.endIndex)]
            rest = text[(colon ?? text.endIndex)...]
            guard !host.contains(":") else { return nil }
        }
        let plain = host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") }
        guard !host.isEmpty, plain else { return nil }
        if rest.isEmpty { return (String(host), nil) }
        guard rest.first == ":" else { return nil }
        let digits = rest.dropFirst()
        guard !digits.isEmpty, digits.count <= 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let port = Int(digits), port <= 65535 else { return nil }
        return (String(host), port)
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
