/// Sound ids are the only way a command names a sound: short, lower-case `[a-z0-9_-]`, so an id
/// can never be a path. Ids of custom files are derived from their file names.
public enum SoundID {
    public static let maxLength = 64

    /// A plain id, or a station's `radio:<id>` (so state files that name a station keep it).
    public static func isValid(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= maxLength else { return false }
        if id.hasPrefix(Station.soundPrefix) { return Station.stationID(ofSound: id) != nil }
        return id.utf8.allSatisfy(isAllowed)
    }

    /// `Heavy Rain (night).flac` -> `heavy_rain_night`. Nil when nothing usable is left.
    public static func derive(fromFileName name: String) -> String? {
        var stem = Substring(name)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        var out: [UInt8] = []
        for byte in stem.lowercased().utf8 {
            let mapped = isAllowed(byte) ? byte : UInt8(ascii: "_")
            // Runs of replaced characters collapse into one underscore.
            if mapped == UInt8(ascii: "_"), out.last == UInt8(ascii: "_") { continue }
            out.append(mapped)
        }
        while out.first == UInt8(ascii: "_") { out.removeFirst() }
        while out.last == UInt8(ascii: "_") { out.removeLast() }
        let id = String(decoding: out.prefix(maxLength), as: UTF8.self)
        return isValid(id) ? id : nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
