/// An HLS playlist (RFC 8216) as far as a radio needs it: a master playlist's variants, or a media
/// playlist's segments with their sequence numbers, target duration, titles and whether it ended.
struct HLSPlaylist: Equatable {
    struct Segment: Equatable {
        var sequence: Int
        var uri: String
        var duration: Double
        /// `#EXTINF:<duration>,<title>`'s title, nil when empty.
        var title: String?
    }

    struct Variant: Equatable {
        var uri: String
        var bandwidth: Int
        var codecs: String?
    }

    var variants: [Variant] = []
    var segments: [Segment] = []
    var targetDuration = 10.0
    var mediaSequence = 0
    var ended = false

    /// Nil when `text` is not an m3u8 playlist.
    init?(_ text: String) {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map { String($0).trimmingWhitespace() }
        guard lines.first?.hasPrefix("#EXTM3U") ?? false else { return nil }
        var pendingVariant: Variant?
        var pendingDuration: Double?, pendingTitle: String?
        for line in lines.dropFirst() where !line.isEmpty {
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                targetDuration = Double(line.dropFirst(22)) ?? targetDuration
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                mediaSequence = Int(line.dropFirst(22)) ?? 0
            } else if line.hasPrefix("#EXT-X-ENDLIST") {
                ended = true
            } else if line.hasPrefix("#EXT-X-STREAM-INF:") {
                let attributes = Self.attributes(String(line.dropFirst(18)))
                pendingVariant = Variant(uri: "", bandwidth: Int(attributes["BANDWIDTH"] ?? "") ?? 0, codecs: attributes["CODECS"])
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst(8)
                let comma = value.firstIndex(of: ",")
                pendingDuration = Double(value[..<(comma ?? value.endIndex)]) ?? 0
                let title = comma.map { String(value[value.index(after: $0)...]).trimmingWhitespace() } ?? ""
                pendingTitle = title.isEmpty ? nil : title
            } else if !line.hasPrefix("#") {
                if var variant = pendingVariant {
                    variant.uri = line
                    variants.append(variant)
                    pendingVariant = nil
                } else if let duration = pendingDuration {
                    segments.append(Segment(sequence: mediaSequence + segments.count, uri: line, duration: duration, title: pendingTitle))
                    pendingDuration = nil
                    pendingTitle = nil
                }
            }
        }
    }

    /// `KEY=value,KEY="quoted, value"` attribute lists.
    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var key = "", value = "", inKey = true, quoted = false
        for character in text + "," {
            if inKey {
                if character == "=" { inKey = false } else if character != "," { key.append(character) }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                result[key.trimmingWhitespace().uppercased()] = value
                key = ""
                value = ""
                inKey = true
            } else {
                value.append(character)
            }
        }
        return result
    }

    /// A playlist's reference (segment, variant) made absolute against the playlist's own address.
    static func resolve(_ reference: String, against base: String) -> String {
        if reference.contains("://") { return reference }
        guard let colon = base.firstIndex(of: ":"), base[colon...].hasPrefix("://") else { return reference }
        let scheme = String(base[..<colon])
        let rest = base[base.index(colon, offsetBy: 3)...]
        let stops: Set<Character> = ["/", "?", "#"]
        let authorityEnd = rest.firstIndex { stops.contains($0) } ?? rest.endIndex
        let origin = scheme + "://" + String(rest[..<authorityEnd])
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        if reference.hasPrefix("/") { return origin + reference }
        let path = rest[authorityEnd...].prefix { $0 != "?" && $0 != "#" }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
        return origin + directory + reference
    }
}
