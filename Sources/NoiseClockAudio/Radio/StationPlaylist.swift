import NoiseClockCore

/// What a station's address gave: audio, or a playlist to follow. `.m3u` and `.pls` name the
/// stream (the first http(s) entry is taken); an m3u with `#EXT-X-` tags is HLS, read by its own
/// reader. Told apart by content first (servers label playlists loosely), then by the type.
enum StationPlaylist: Equatable {
    case audio
    case redirect(String)
    case hls
    case empty

    /// A playlist is small: more than this is audio (or not a playlist the node reads).
    static let maxBytes = 64 * 1024

    /// `head`: the body's first bytes (up to `maxBytes`); `contentType`: the header, lower-cased.
    static func classify(head: [UInt8], contentType: String?) -> StationPlaylist {
        let type = contentType?.split(separator: ";").first.map { String($0).trimmingWhitespace() } ?? ""
        let text = String(decoding: head.prefix(maxBytes), as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("#EXTM3U") || type == "application/vnd.apple.mpegurl" || type == "application/x-mpegurl"
            || type == "audio/mpegurl" || type == "audio/x-mpegurl" {
            if text.contains("#EXT-X-") { return .hls }
            return m3u(text)
        }
        if trimmed.lowercased().hasPrefix("[playlist]") || type == "audio/x-scpls" { return pls(text) }
        return .audio
    }

    static func m3u(_ text: String) -> StationPlaylist {
        for line in lines(text) where !line.hasPrefix("#") {
            if Station.isValidURL(line) { return .redirect(line) }
        }
        return .empty
    }

    /// `FileN=url` entries; the lowest N wins.
    static func pls(_ text: String) -> StationPlaylist {
        var best: (Int, String)?
        for line in lines(text) {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased().hasPrefix("file"), let n = Int(parts[0].dropFirst(4)) else { continue }
            let url = String(parts[1]).trimmingWhitespace()
            guard Station.isValidURL(url), best.map({ n < $0.0 }) ?? true else { continue }
            best = (n, url)
        }
        return best.map { .redirect($0.1) } ?? .empty
    }

    private static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}
