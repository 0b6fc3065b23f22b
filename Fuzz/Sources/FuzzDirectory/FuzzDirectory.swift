import FuzzSupport
import NoiseClockCore

/// One input is `kind, bytes`: the first byte's low bit picks what the bytes are: 0, a station
/// directory's answer (Radio Browser's JSON, `RadioBrowserAnswer.stations`); 1, the four values of
/// `GET /api/stations/search` (q, country, tag, limit, separated by newlines; `StationSearchQuery`).
/// Besides "no crash": every station kept is one the node can store and play (a valid id, a name
/// of 1–64 scalars without control characters, an address `Station.isValidURL` accepts, every
/// other field in its bounds, at most 50), its JSON reads back unchanged; a query taken is within
/// its bounds and becomes a request path of printable ASCII.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDirectory(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    if input.byte() & 1 == 0 {
        checkAnswer(Array(input.bytes))
    } else {
        checkQuery(Array(input.bytes))
    }
    return 0
}

private func checkAnswer(_ bytes: [UInt8]) {
    guard let stations = RadioBrowserAnswer.stations(bytes) else { return }
    precondition(stations.count <= RadioBrowserAnswer.maxEntries, "\(stations.count) stations")
    precondition(Set(stations.map(\.directoryID)).count == stations.count, "an id twice")
    for station in stations {
        precondition(DirectoryStation.isValidID(station.directoryID), "id \(station.directoryID)")
        precondition(Station.nameLength.contains(station.name.unicodeScalars.count), "name of \(station.name.unicodeScalars.count)")
        precondition(!station.name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a control character")
        precondition(Station.isValidURL(station.url), "url \(station.url.prefix(80))")
        precondition(station.homepage.map(Station.isValidURL) ?? true, "homepage")
        precondition(station.codec.unicodeScalars.count <= DirectoryStation.codecLength, "codec")
        precondition(station.bitrateKbps.map(DirectoryStation.bitrateRange.contains) ?? true, "bitrate")
        precondition(station.country.isEmpty || (station.country.utf8.count == 2 && station.country == station.country.uppercased()), "country")
        precondition(station.tags.count <= DirectoryStation.tagsLimit, "tags")
        precondition(station.tags.allSatisfy { !$0.isEmpty && $0.unicodeScalars.count <= DirectoryStation.tagLength }, "a tag")
        let text = station.json.serialized
        guard let parsed = try? JSONParser().parse(text) else { preconditionFailure("unreadable JSON: \(text.prefix(200))") }
        precondition(parsed.serialized == text, "JSON does not round-trip")
    }
}

private func checkQuery(_ bytes: [UInt8]) {
    let values = bytes.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let names = ["q", "country", "tag", "limit"]
    guard case .success(let query) = StationSearchQuery.parse({ name in
        names.firstIndex(of: name).flatMap { $0 < values.count ? values[$0] : nil }
    }) else { return }
    precondition(StationSearchQuery.limitRange.contains(query.limit), "limit \(query.limit)")
    precondition(query.country.isEmpty || StationSearchQuery.isCountryCode(query.country), "country")
    precondition(query.text.unicodeScalars.count <= StationSearchQuery.textLength, "q")
    precondition(query.radioBrowserPath.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "a path byte that is not printable ASCII")
}

@_cdecl("FuzzDirectory_main")
func fuzzDirectoryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzDirectory)
}
