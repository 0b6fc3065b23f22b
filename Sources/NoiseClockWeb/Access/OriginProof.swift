/// Proof that a state change comes from the node's own pages (cookies are shared by every port
/// of a host and SameSite does not see ports, so a page on another port of the same machine is
/// "same site"): an `Origin` whose host and port are the request's `Host`, or, without one,
/// `Sec-Fetch-Site: same-origin`.
enum OriginProof {
    /// - Parameter required: with cookie access a proof must be there; with `auth: none` a
    ///   request that carries neither header (a script) passes, one that carries a wrong one does not.
    static func holds(_ request: HTTPRequest, required: Bool) -> Bool {
        guard let hostHeader = request.header("host"), let host = HostPolicy.split(hostHeader) else { return false }
        if let origin = request.header("origin") {
            guard let (scheme, originHost, originPort) = parse(origin) else { return false }
            let hostPort = host.port ?? (scheme == "https" ? 443 : 80)
            return originHost == host.host && originPort == hostPort
        }
        if let site = request.header("sec-fetch-site") { return site.lowercased() == "same-origin" }
        return !required
    }

    /// `http://host[:port]` → scheme, host, port (the scheme's default when absent); nil for
    /// `null`, paths, or other schemes.
    static func parse(_ origin: String) -> (scheme: String, host: String, port: Int)? {
        let text = origin.lowercased()
        let scheme: String
        if text.hasPrefix("http://") { scheme = "http" } else if text.hasPrefix("https://") { scheme = "https" } else { return nil }
        let rest = String(text.dropFirst(scheme.count + 3))
        guard let (host, port) = HostPolicy.split(rest) else { return nil }
        return (scheme, host, port ?? (scheme == "https" ? 443 : 80))
    }
}
