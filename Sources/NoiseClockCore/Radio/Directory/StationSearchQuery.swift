/// `GET /api/stations/search?q=&country=&tag=&limit=` (http-api v1.4): the search, checked, and
/// the Radio Browser request it becomes (`/json/stations/search`, broken stations hidden, the most
/// voted first). A value out of bounds is `invalid_field` naming the field; nothing is asked then.
public struct StationSearchQuery: Hashable, Sendable {
    /// Part of the station's name ("" for any).
    public var text: String
    /// ISO 3166-1 alpha-2, upper-case ("" for any).
    public var country: String
    /// A genre tag ("" for any).
    public var tag: String
    public var limit: Int

    public static let limitRange = 1...50
    public static let defaultLimit = 20
    public static let textLength = 100
    public static let tagLength = 64

    public init(text: String = "", country: String = "", tag: String = "", limit: Int = StationSearchQuery.defaultLimit) {
        self.text = text
        self.country = country
        self.tag = tag
        self.limit = limit
    }

    /// From the request's query values (`value(name)`: the percent-decoded value, nil when absent).
    public static func parse(_ value: (String) -> String?) -> Result<StationSearchQuery, CommandError> {
        var query = StationSearchQuery()
        do throws(CommandError) {
            query.text = try words(value("q"), field: "q", limit: textLength)
            query.tag = try words(value("tag"), field: "tag", limit: tagLength).lowercased()
            if let country = value("country"), !country.isEmpty {
                guard isCountryCode(country) else {
                    throw .invalidField("country", "country must be an ISO 3166 code of two letters (DE, KR), got \"\(country.prefix(16))\"")
                }
                query.country = country.uppercased()
            }
            if let limit = value("limit"), !limit.isEmpty {
                guard limit.utf8.count <= 3, let number = Int(limit), limitRange.contains(number) else {
                    throw .invalidField("limit", "limit must be a whole number from 1 to 50, got \"\(limit.prefix(16))\"")
                }
                query.limit = number
            }
        } catch {
            return .failure(error)
        }
        return .success(query)
    }

    static func words(_ raw: String?, field: String, limit: Int) throws(CommandError) -> String {
        guard let raw else { return "" }
        let text = raw.trimmingWhitespace()
        guard text.unicodeScalars.count <= limit else {
            throw .invalidField(field, "\(field) must be at most \(limit) characters, got \(text.unicodeScalars.count)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField(field, "\(field) must not contain control characters")
        }
        return text
    }

    /// Two ASCII letters.
    public static func isCountryCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The directory's request path and query: every value percent-encoded (RFC 3986 unreserved kept).
    public var radioBrowserPath: String {
        var pairs: [(String, String)] = []
        if !text.isEmpty { pairs.append(("name", text)) }
        if !country.isEmpty { pairs.append(("countrycode", country)) }
        if !tag.isEmpty { pairs.append(("tag", tag)) }
        pairs += [("limit", String(limit)), ("hidebroken", "true"), ("order", "votes"), ("reverse", "true")]
        return "/json/stations/search?" + pairs.map { "\($0.0)=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
    }

    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return encoded
    }
}
