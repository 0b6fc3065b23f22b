/// The request path, percent-decoded, and only when it is clean: it starts with one `/`, has no
/// empty, `.` or `..` segment, no `\`, no control character and is valid UTF-8. Anything else is
/// refused (400), so a path can go back into a `Location` without becoming `//host`, `\host` or
/// a header break.
enum CleanPath {
    static func decode(_ raw: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            var byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex, let high = raw[index + 1].hexDigitValue, let low = raw[index + 2].hexDigitValue else { return nil }
                byte = high << 4 | low
                index += 2
            }
            guard byte >= 0x20, byte != 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            bytes.append(byte)
            index += 1
        }
        guard bytes.first == UInt8(ascii: "/"), let path = String(validating: bytes, as: UTF8.self) else { return nil }
        let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            // Only the last segment may be empty (`/` itself, or a trailing slash).
            if segment.isEmpty && index != segments.count - 1 { return nil }
            if segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) { return nil }
        }
        return path
    }

    /// The path again as a relative reference for `Location`: every byte but unreserved
    /// characters and `/` percent-encoded (a clean path never starts with `//`).
    static func encode(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + hex(byte >> 4) + hex(byte & 15)
            }
        }
        return out
    }

    /// A query component (key or value) re-encoded the same way, `/` too.
    static func encodeComponent(_ text: String) -> String {
        var out = ""
        for character in encode(text) { out += character == "/" ? "%2F" : String(character) }
        return out
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func hex(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? nibble + 48 : nibble + 55))
    }
}
