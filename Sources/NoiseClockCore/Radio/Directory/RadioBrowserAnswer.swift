/// Reads Radio Browser's answers (`/json/stations/search`, `/json/stations/byuuid/<id>`: a JSON
/// array of station objects) into `DirectoryStation`s. The answer is hostile input: at most
/// `maxBytes`, at most `maxEntries` read, every string bounded in scalars and stripped of control
/// characters, every number checked before use, and a station without a usable id, name or
/// `http(s)` address left out. Never throws and never traps: a broken answer is no stations.
/// Fuzzed (`FuzzDirectory`).
public enum RadioBrowserAnswer {
    /// An answer longer than this is refused whole (a search of 50 stations is about 60 KB).
    public static let maxBytes = 1 << 20
    /// Entries read from one answer (the search asks for at most 50).
    public static let maxEntries = 50
    /// Nesting allowed (a station object in the array: 2; tags, if sent as an array, 3).
    static let maxDepth = 4

    /// nil when the answer is not a JSON array (or too long): the directory did not answer as it should.
    public static func stations(_ bytes: [UInt8]) -> [DirectoryStation]? {
        guard bytes.count <= maxBytes, let document = try? JSONParser(maxDepth: maxDepth).parse(bytes),
              let items = document.arrayValue else { return nil }
        var stations: [DirectoryStation] = []
        for item in items.prefix(maxEntries * 4) {
            guard stations.count < maxEntries else { break }
            guard let station = station(item), !stations.contains(where: { $0.directoryID == station.directoryID }) else { continue }
            stations.append(station)
        }
        return stations
    }

    /// One station object, or nil when it lacks an id, a name or a playable address.
    static func station(_ item: JSONValue) -> DirectoryStation? {
        guard let object = item.objectValue else { return nil }
        guard let id = object["stationuuid"]?.stringValue, DirectoryStation.isValidID(id) else { return nil }
        guard let name = text(object["name"], limit: Station.nameLength.upperBound), !name.isEmpty else { return nil }
        // `url_resolved` is the stream behind a playlist; `url` what the station's owner gave.
        let address = [object["url_resolved"], object["url"]].lazy.compactMap { $0?.stringValue }.first { Station.isValidURL($0) }
        guard let url = address else { return nil }
        var station = DirectoryStation(directoryID: id, name: name, url: url)
        station.codec = (text(object["codec"], limit: DirectoryStation.codecLength) ?? "").uppercased()
        station.bitrateKbps = bitrate(object["bitrate"])
        station.country = country(object["countrycode"])
        station.tags = tags(object["tags"])
        station.homepage = object["homepage"]?.stringValue.flatMap { Station.isValidURL($0) ? $0 : nil }
        return station
    }

    /// A string field trimmed, without control characters, cut to `limit` scalars.
    static func text(_ value: JSONValue?, limit: Int) -> String? {
        guard let raw = value?.stringValue else { return nil }
        // Looked at no further than a bound: a 1 MB name costs no more than a short one.
        let scalars = raw.unicodeScalars.prefix(limit * 4).filter {
            $0.properties.generalCategory != .control && $0.properties.generalCategory != .format && $0 != "\u{2028}" && $0 != "\u{2029}"
        }
        var kept = String(String.UnicodeScalarView(scalars)).trimmingWhitespace()
        if kept.unicodeScalars.count > limit {
            kept = String(String.UnicodeScalarView(kept.unicodeScalars.prefix(limit))).trimmingWhitespace()
        }
        return kept
    }

    /// `bitrate`: a whole number in `bitrateRange`; 0 (Radio Browser's "unknown"), fractions,
    /// negatives, huge numbers and strings are nil.
    static func bitrate(_ value: JSONValue?) -> Int? {
        guard let number = value?.doubleValue, number.isFinite, number.rounded() == number,
              number >= Double(DirectoryStation.bitrateRange.lowerBound), number <= Double(DirectoryStation.bitrateRange.upperBound)
        else { return nil }
        return Int(number)
    }

    /// `countrycode`: two ASCII letters, upper-cased; anything else is "".
    static func country(_ value: JSONValue?) -> String {
        guard let code = value?.stringValue, StationSearchQuery.isCountryCode(code) else { return "" }
        return code.uppercased()
    }

    /// `tags`: Radio Browser sends one comma-separated string; an array of strings is read too.
    static func tags(_ value: JSONValue?) -> [String] {
        let parts: [String]
        switch value {
        // Only the first 4 KB are looked at: ten tags of 32 characters fit many times over.
        case .string(let joined)?: parts = String(decoding: joined.utf8.prefix(4096), as: UTF8.self).split(separator: ",").map(String.init)
        case .array(let items)?: parts = items.prefix(DirectoryStation.tagsLimit * 4).compactMap(\.stringValue)
        default: parts = []
        }
        var tags: [String] = []
        for part in parts where tags.count < DirectoryStation.tagsLimit {
            guard let tag = text(.string(part), limit: DirectoryStation.tagLength), !tag.isEmpty, !tags.contains(tag) else { continue }
            tags.append(tag)
        }
        return tags
    }
}
