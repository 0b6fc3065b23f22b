#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` headers the node answers (DNS rebinding: a hostile page whose name comes to
/// point at the node must not be served as that name): an IP literal, `localhost`, a name whose
/// first label is the machine's host name (`bedside`, `bedside.local`, `bedside.lan`), or one of
/// `web.allowed_hosts` (a reverse proxy's name). Anything else gets 421.
public struct HostPolicy: Sendable {
    /// The machine's host name's first label, lower-cased (empty: none known).
    let machineName: String
    let allowed: Set<String>

    public init(machineName: String, allowed: [String]) {
        self.machineName = String(machineName.lowercased().split(separator: ".").first ?? "")
        self.allowed = Set(allowed.map { $0.lowercased() })
    }

    public func admits(_ hostHeader: String?) -> Bool {
        guard let hostHeader, let (host, _) = Self.split(hostHeader) else { return false }
        if Self.isIPLiteral(host) || host == "localhost" || allowed.contains(host) { return true }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" || allowed.contains(name) { return true }
        guard !machineName.isEmpty, let first = name.split(separator: ".", omittingEmptySubsequences: false).first else { return false }
        return first == machineName
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
