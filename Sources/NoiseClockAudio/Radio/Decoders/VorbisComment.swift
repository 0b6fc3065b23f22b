/// The title in a Vorbis comment block, the tags Ogg Vorbis, Opus (OpusTags) and FLAC carry:
/// "ARTIST - TITLE" as an ICY title reads, or TITLE alone; nil when it has neither.
enum VorbisComment {
    /// `bytes`: the block itself (vendor length, vendor, count, then length-prefixed `KEY=value`),
    /// little-endian lengths; whatever follows (Vorbis's framing bit) is ignored.
    static func title(_ bytes: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        func length() -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            let value = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
            offset += 4
            return value
        }
        guard let vendor = length(), vendor <= bytes.count - offset else { return nil }
        offset += vendor
        guard let count = length() else { return nil }
        var entries: [String] = []
        for _ in 0..<min(count, 1000) {
            guard let size = length(), size <= bytes.count - offset else { break }
            entries.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)]), as: UTF8.self))
            offset += size
        }
        return title(entries: entries)
    }

    /// The title from the block's `KEY=value` entries (keys in any case).
    static func title(entries: [String]) -> String? {
        var artist: String?, title: String?
        for entry in entries {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let value = String(entry[entry.index(after: equals)...]).trimmingWhitespace()
            switch entry[..<equals].uppercased() {
            case "TITLE" where title == nil && !value.isEmpty: title = value
            case "ARTIST" where artist == nil && !value.isEmpty: artist = value
            default: break
            }
        }
        guard let title else { return nil }
        // Every control character (DEL and C1 too, as ICY titles are cleaned): the title goes to `~/noise` as it is.
        return String((artist.map { "\($0) - \(title)" } ?? title).unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(256))
    }
}
