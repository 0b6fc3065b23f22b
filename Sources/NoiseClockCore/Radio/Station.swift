/// An internet radio station (v1.3, Radio): a name and the address of a stream or a playlist
/// (`.m3u`, `.pls`, HLS `.m3u8`). Played wherever a sound is, as `radio:<id>`.
public struct Station: Hashable, Sendable {
    public var id: String
    public var name: String
    public var url: String
    /// v1.4: the station's id in the directory it was found in (`DirectoryStation.isValidID`):
    /// the node tells the directory of the choice, and looks a moved station up by it.
    public var directoryID: String?

    public init(id: String, name: String, url: String, directoryID: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.directoryID = directoryID
    }

    public static let idLength = 1...32
    public static let nameLength = 1...64
    public static let maxURLBytes = 2048
    /// At most this many stations (each a line on `~/stations` and in every sound picker).
    public static let limit = 50
    /// The prefix of a station's sound id, and its category in `~/sounds`.
    public static let soundPrefix = "radio:"
    public static let category = "radio"

    /// `radio:<id>`: how commands name the station as a sound.
    public var soundID: String { Self.soundPrefix + id }

    /// The station id inside a sound id (`radio:jazz` → `jazz`); nil for any other sound.
    public static func stationID(ofSound sound: String) -> String? {
        guard sound.hasPrefix(soundPrefix) else { return nil }
        let id = String(sound.dropFirst(soundPrefix.count))
        return isValidID(id) ? id : nil
    }

    public var json: JSONValue {
        // `directory_id` only when set: a station typed by hand reads as it did before v1.4.
        .object(JSONObject([("id", .string(id)), ("name", .string(name)), ("url", .string(url))]
            + (directoryID.map { [("directory_id", JSONValue.string($0))] } ?? [])))
    }

    /// `[a-z0-9_-]`, 1–32 bytes.
    public static func isValidID(_ id: String) -> Bool {
        idLength.contains(id.utf8.count) && !id.hasPrefix(soundPrefix) && SoundID.isValid(id)
    }

    /// `http://` or `https://` with a host, at most 2048 bytes, no spaces or control characters
    /// (the address goes to the network as it is: nothing in it is re-encoded or interpreted here).
    public static func isValidURL(_ url: String) -> Bool {
        guard url.utf8.count <= maxURLBytes else { return false }
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") { rest = lower.dropFirst(7) } else if lower.hasPrefix("https://") { rest = lower.dropFirst(8) } else {
            return false
        }
        guard let first = rest.unicodeScalars.first, first != "/", first != "?", first != "#" else { return false }
        return url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }

    /// An id made from a name (`Radio Swiss Jazz` → `radio_swiss_jazz`), cut to 32 bytes.
    public static func derivedID(fromName name: String) -> String? {
        // `derive` strips what looks like a file extension: keep dots out of its way.
        let plain = String(name.unicodeScalars.map { $0 == "." ? "_" : Character($0) })
        guard var id = SoundID.derive(fromFileName: plain) else { return nil }
        id = String(decoding: id.utf8.prefix(idLength.upperBound), as: UTF8.self)
        while id.hasSuffix("_") { id.removeLast() }
        return isValidID(id) ? id : nil
    }
}

extension Station {
    /// The fields `station/add` and `station/update` take.
    static let fields: Set<String> = ["id", "name", "url", "directory_id"]

    static func name(_ value: JSONValue) throws(CommandError) -> String {
        guard let text = value.stringValue else { throw .invalidField("name", "name must be a string, got \(value.typeName)") }
        let trimmed = text.trimmingWhitespace()
        let count = trimmed.unicodeScalars.count
        guard nameLength.contains(count) else {
            throw .invalidField("name", "name must be 1 to \(nameLength.upperBound) characters, got \(count)")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField("name", "name must not contain control characters")
        }
        return trimmed
    }

    static func url(_ value: JSONValue) throws(CommandError) -> String {
        guard let text = value.stringValue else { throw .invalidField("url", "url must be a string, got \(value.typeName)") }
        guard text.utf8.count <= maxURLBytes else {
            throw .invalidField("url", "url must be at most \(maxURLBytes) bytes, got \(text.utf8.count)")
        }
        guard isValidURL(text) else {
            throw .invalidField("url", "url must be an http:// or https:// address without spaces, got \"\(text.prefix(64))\"")
        }
        return text
    }

    /// `directory_id`: a directory's id, or null (update: the station is no longer the directory's).
    static func directoryID(_ value: JSONValue) throws(CommandError) -> String? {
        if value.isNull { return nil }
        guard let text = value.stringValue, DirectoryStation.isValidID(text) else {
            throw .invalidField("directory_id", "directory_id must be 1 to 64 letters, digits, - or _ (the directory's station id), or null")
        }
        return text
    }

    static func id(_ value: JSONValue) throws(CommandError) -> String {
        guard let text = value.stringValue?.lowercased(), isValidID(text) else {
            throw .invalidField("id", "id must be 1 to 32 lower-case letters, digits, - or _")
        }
        return text
    }
}
