/// A station as the station directory lists it (http-api v1.4, "Station directory"), every field
/// already bounded (`RadioBrowserAnswer`): what `GET /api/stations/search` answers, one per line
/// `{"directory_id", "name", "url", "codec", "bitrate_kbps", "country", "tags", "homepage"}`.
public struct DirectoryStation: Hashable, Sendable {
    /// Radio Browser's `stationuuid`.
    public var directoryID: String
    public var name: String
    public var url: String
    /// Upper-case (`MP3`, `AAC+`), at most `codecLength` scalars; empty when the directory does not say.
    public var codec: String
    public var bitrateKbps: Int?
    /// ISO 3166-1 alpha-2, upper-case; empty when the directory does not say.
    public var country: String
    public var tags: [String]
    public var homepage: String?

    public init(
        directoryID: String, name: String, url: String, codec: String = "", bitrateKbps: Int? = nil, country: String = "",
        tags: [String] = [], homepage: String? = nil
    ) {
        self.directoryID = directoryID
        self.name = name
        self.url = url
        self.codec = codec
        self.bitrateKbps = bitrateKbps
        self.country = country
        self.tags = tags
        self.homepage = homepage
    }

    public var json: JSONValue {
        .object(JSONObject([
            ("directory_id", .string(directoryID)), ("name", .string(name)), ("url", .string(url)), ("codec", .string(codec)),
            ("bitrate_kbps", .optional(bitrateKbps)), ("country", .string(country)), ("tags", .array(tags.map { .string($0) })),
            ("homepage", .optional(homepage)),
        ]))
    }

    // MARK: Bounds (the directory's answer is input from the internet)

    public static let idLength = 1...64
    public static let codecLength = 16
    public static let tagLength = 32
    public static let tagsLimit = 10
    /// Radio Browser lists bit rates up to a few thousand kbit/s (FLAC); above this is not a number it means.
    public static let bitrateRange = 1...10_000

    /// A directory id: 1–64 letters, digits, `-` or `_` (Radio Browser's are UUIDs): it goes into
    /// the directory's URL paths (`/json/url/<id>`) as it is, so nothing else may be in it.
    public static func isValidID(_ id: String) -> Bool {
        idLength.contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
    }
}
