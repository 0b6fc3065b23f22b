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

    /// Why a text is not a playlist the node plays: each ends the stream as `undecodable`.
    enum Invalid: Error, Equatable {
        case notAPlaylist
        /// A number outside `StreamLimits` (or not a number): the tag's name and its text.
        case outOfBounds(String, String)
        case tooManyEntries
    }

    /// Nil when `text` is not an m3u8 playlist, or breaks a bound (`init(parsing:)` says which).
    init?(_ text: String) {
        guard let playlist = try? HLSPlaylist(parsing: text) else { return nil }
        self = playlist
    }

    /// Every number is checked against `StreamLimits` before it is used, so no server can make
    /// the arithmetic trap (a sequence near Int.max, a duration of `inf`).
    init(parsing text: String) throws(Invalid) {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map { String($0).trimmingWhitespace() }
        guard lines.first?.hasPrefix("#EXTM3U") ?? false else { throw .notAPlaylist }
        var pendingVariant: Variant?
        var pendingDuration: Double?, pendingTitle: String?
        for line in lines.dropFirst() where !line.isEmpty {
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                targetDuration = try Self.seconds(line.dropFirst(22), "EXT-X-TARGETDURATION", in: StreamLimits.targetDurationSeconds)
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                let value = String(line.dropFirst(22)).trimmingWhitespace()
                guard let sequence = Int(value), StreamLimits.mediaSequence.contains(sequence) else {
                    throw .outOfBounds("EXT-X-MEDIA-SEQUENCE", String(value.prefix(32)))
                }
                mediaSequence = sequence
            } else if line.hasPrefix("#EXT-X-ENDLIST") {
                ended = true
            } else if line.hasPrefix("#EXT-X-STREAM-INF:") {
                let attributes = Self.attributes(String(line.dropFirst(18)))
                pendingVariant = Variant(uri: "", bandwidth: Int(attributes["BANDWIDTH"] ?? "") ?? 0, codecs: attributes["CODECS"])
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst(8)
                let comma = value.firstIndex(of: ",")
                let duration = try Self.seconds(value[..<(comma ?? value.endIndex)], "EXTINF", in: 0...StreamLimits.segmentMaxSeconds)
                guard duration > 0 else { throw .outOfBounds("EXTINF", "0") }
                pendingDuration = duration
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
                if variants.count + segments.count > StreamLimits.playlistEntries { throw .tooManyEntries }
            }
        }
    }

    /// A duration in seconds within `range`: `inf`, `nan`, `1e300`, `-2` and words are not.
    private static func seconds(_ text: Substring, _ tag: String, in range: ClosedRange<Double>) throws(Invalid) -> Double {
        let value = String(text).trimmingWhitespace()
        guard let seconds = Double(value), seconds.isFinite, range.contains(seconds) else { throw .outOfBounds(tag, String(value.prefix(32))) }
        return seconds
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
