@testable import NoiseClockCore
import Testing

/// Radio Browser's answer read as hostile input (http-api v1.4, "Station directory"): documented
/// fields into `DirectoryStation`, every string and number bounded, a station without an id, a
/// name or an http(s) address left out, a broken or oversized answer no stations at all.
@Suite struct RadioBrowserAnswerTests {
    static let jazz = #"""
        {"changeuuid": "c6062a7b", "stationuuid": "96062a7b-0601-11e8-ae97-52543be04c81", "name": "  Swiss Jazz  ",
         "url": "http://stream.example/jazz.m3u", "url_resolved": "http://stream.example/jazz.mp3", "homepage": "https://jazz.example/",
         "favicon": "", "tags": "jazz, smooth jazz,,jazz", "country": "Switzerland", "countrycode": "ch", "codec": "mp3",
         "bitrate": 128, "votes": 9000, "lastcheckok": 1}
        """#

    @Test func aStationAsRadioBrowserDocumentsIt() throws {
        let stations = try #require(RadioBrowserAnswer.stations(Array("[\(Self.jazz)]".utf8)))
        #expect(stations == [DirectoryStation(
            directoryID: "96062a7b-0601-11e8-ae97-52543be04c81", name: "Swiss Jazz", url: "http://stream.example/jazz.mp3",
            codec: "MP3", bitrateKbps: 128, country: "CH", tags: ["jazz", "smooth jazz"], homepage: "https://jazz.example/")])
        #expect(stations[0].json["bitrate_kbps"] == 128 && stations[0].json["directory_id"] == "96062a7b-0601-11e8-ae97-52543be04c81")
    }

    @Test(arguments: [
        (#"{"stationuuid": "../../etc", "name": "A", "url_resolved": "http://a.example/"}"#, "an id that is not one"),
        (#"{"stationuuid": "a1", "name": "", "url_resolved": "http://a.example/"}"#, "no name"),
        (#"{"stationuuid": "a1", "name": "\u0007\u0000", "url_resolved": "http://a.example/"}"#, "a name of control characters"),
        (#"{"stationuuid": "a1", "name": "A", "url_resolved": "file:///etc/passwd", "url": "file:///etc/passwd"}"#, "a file address"),
        (#"{"stationuuid": "a1", "name": "A", "url_resolved": "http://a b/"}"#, "an address with a space"),
        (#"{"stationuuid": 5, "name": "A", "url_resolved": "http://a.example/"}"#, "a number as id"),
        (#"["nested"]"#, "not an object"),
    ])
    func aStationThatCannotBeUsedIsLeftOut(entry: String, why: String) throws {
        let stations = try #require(RadioBrowserAnswer.stations(Array("[\(entry), \(Self.jazz)]".utf8)))
        #expect(stations.map(\.name) == ["Swiss Jazz"], "\(why)")
    }

    @Test(arguments: [
        ("1e308", nil), ("-5", nil), ("0", nil), ("127.5", nil), ("\"128\"", nil), ("10001", nil), ("9223372036854775807", nil),
        ("10000", 10000), ("1", 1),
    ] as [(String, Int?)])
    func aBitRateIsAWholeNumberInBounds(raw: String, kbps: Int?) throws {
        let entry = #"{"stationuuid": "a1", "name": "A", "url_resolved": "http://a.example/", "bitrate": \#(raw)}"#
        let stations = try #require(RadioBrowserAnswer.stations(Array("[\(entry)]".utf8)))
        #expect(stations.first?.bitrateKbps == kbps)
    }

    @Test func everyStringIsBounded() throws {
        let long = String(repeating: "가", count: 5000)
        let tags = (0..<40).map { "tag\($0)" }.joined(separator: ",") + "," + long
        let entry = #"{"stationuuid": "a1", "name": "\#(long)\u202e", "url_resolved": "http://a.example/", "codec": "\#(long)", "#
            + #""countrycode": "KOR", "tags": "\#(tags)", "homepage": "javascript:alert(1)"}"#
        let station = try #require(RadioBrowserAnswer.stations(Array("[\(entry)]".utf8))?.first)
        #expect(station.name.unicodeScalars.count == Station.nameLength.upperBound)
        #expect(station.codec.unicodeScalars.count == DirectoryStation.codecLength)
        #expect(station.country == "" && station.homepage == nil)
        #expect(station.tags.count == DirectoryStation.tagsLimit && station.tags.allSatisfy { $0.unicodeScalars.count <= DirectoryStation.tagLength })
    }

    @Test func aBrokenOrOversizedAnswerIsNoAnswer() {
        #expect(RadioBrowserAnswer.stations(Array(#"{"error": "rate limited"}"#.utf8)) == nil)
        #expect(RadioBrowserAnswer.stations(Array("<html>502 Bad Gateway</html>".utf8)) == nil)
        #expect(RadioBrowserAnswer.stations(Array("[".utf8)) == nil)
        #expect(RadioBrowserAnswer.stations(Array(String(repeating: "[", count: 100_000).utf8)) == nil, "deep nesting is refused, not recursed")
        let padded = "[" + String(repeating: " ", count: RadioBrowserAnswer.maxBytes) + "]"
        #expect(RadioBrowserAnswer.stations(Array(padded.utf8)) == nil, "more than 1 MiB is refused whole")
        #expect(RadioBrowserAnswer.stations(Array("[]".utf8)) == [])
    }

    @Test func atMostFiftyStationsAndNoIDTwice() throws {
        let entries = (0..<200).map { #"{"stationuuid": "id\#($0 % 60)", "name": "S\#($0)", "url_resolved": "http://a.example/\#($0)"}"# }
        let stations = try #require(RadioBrowserAnswer.stations(Array("[\(entries.joined(separator: ","))]".utf8)))
        #expect(stations.count == RadioBrowserAnswer.maxEntries)
        #expect(Set(stations.map(\.directoryID)).count == stations.count)
    }
}
