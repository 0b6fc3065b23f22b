import NoiseClockCore

/// The stream client's reading of response heads, one header line at a time as libcurl hands them
/// over, every response's (redirects too): a status line starts a head afresh; the empty line ends
/// it. Pure (no libcurl), so the fuzz targets (Fuzz/) read heads exactly as a connection does.
struct StreamHeadReader {
    private(set) var head = StreamConnection.Head()
    /// Redirects' heads read so far (the route's hops: `StreamBudget.redirected`); bounded, as
    /// libcurl follows at most the route's redirects left anyway.
    private(set) var redirects = 0

    /// Reads one line as it came off the wire (any bytes, its CRLF included). Returns the head when
    /// the line ends a final response's head: not a redirect's (the next response follows), not an
    /// error's (its status stays in `head` for the connection's cause).
    mutating func read(_ bytes: UnsafeRawBufferPointer) -> StreamConnection.Head? {
        let line = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") {
            head = StreamConnection.Head()
            let parts = line.split(separator: " ")
            head.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        } else if line.isEmpty {
            if (300..<400).contains(head.status) { redirects = min(redirects + 1, 1_000) }
            if !(300..<400).contains(head.status), head.status < 400 { return head }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            switch name {
            case "content-type": head.contentType = value.lowercased()
            case "icy-metaint": head.metaInterval = Int(value)
            case "icy-br": head.bitrateKbps = value.split(separator: ",").first.flatMap { Int($0) }
            case "icy-name": head.name = String(value.prefix(64))
            default: break
            }
        }
        return nil
    }
}
