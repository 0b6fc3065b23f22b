@testable import NoiseClockCore
import Testing

/// `GET /api/stations/search`'s query (http-api v1.4): bounds, the field named on error, the
/// Radio Browser request it becomes, and the 10-minute cache on an injected clock.
@Suite struct StationSearchQueryTests {
    static func parse(_ values: [String: String]) -> Result<StationSearchQuery, CommandError> {
        StationSearchQuery.parse { values[$0] }
    }

    @Test func defaultsAndTheRadioBrowserRequest() throws {
        let query = try Self.parse(["q": " jazz & blues ", "country": "kr", "tag": "Smooth"]).get()
        #expect(query == StationSearchQuery(text: "jazz & blues", country: "KR", tag: "smooth", limit: 20))
        #expect(query.radioBrowserPath == "/json/stations/search?name=jazz%20%26%20blues&countrycode=KR&tag=smooth&limit=20"
            + "&hidebroken=true&order=votes&reverse=true")
        #expect(try Self.parse([:]).get().radioBrowserPath == "/json/stations/search?limit=20&hidebroken=true&order=votes&reverse=true")
        #expect(try Self.parse(["q": "클래식", "limit": "50"]).get().radioBrowserPath.hasPrefix(
            "/json/stations/search?name=%ED%81%B4%EB%9E%98%EC%8B%9D&limit=50"))
    }

    @Test(arguments: [
        (["limit": "0"], "limit"), (["limit": "51"], "limit"), (["limit": "abc"], "limit"), (["limit": "99999999999999999999"], "limit"),
        (["limit": "-1"], "limit"), (["country": "DEU"], "country"), (["country": "D1"], "country"), (["country": "한국"], "country"),
        (["q": String(repeating: "a", count: 101)], "q"), (["q": "a\u{0}b"], "q"), (["tag": String(repeating: "t", count: 65)], "tag"),
        (["tag": "a\nb"], "tag"),
    ])
    func aBadValueIsInvalidFieldNamingIt(values: [String: String], field: String) {
        guard case .failure(let error) = Self.parse(values) else {
            Issue.record("\(values) was taken")
            return
        }
        #expect(error.code == .invalidField && error.field == field, "\(error)")
    }

    @Test func theSameSearchIsKeptTenMinutes() {
        var cache = DirectorySearchCache()
        let jazz = StationSearchQuery(text: "jazz")
        let found = [DirectoryStation(directoryID: "a1", name: "A", url: "http://a.example/")]
        cache.store(found, for: jazz, now: 1_000)
        #expect(cache.stations(for: jazz, now: 1_000 + 599_999) == found)
        #expect(cache.stations(for: StationSearchQuery(text: "jazz", limit: 5), now: 2_000) == nil, "another search is asked anew")
        #expect(cache.stations(for: jazz, now: 1_000 + 600_000) == nil, "after 10 minutes the directory is asked again")
        #expect(cache.stations(for: jazz, now: 999) == nil, "a clock that went back is not trusted")
        for index in 0..<(DirectorySearchCache.capacity + 10) {
            cache.store(found, for: StationSearchQuery(text: "q\(index)"), now: 5_000 + Int64(index))
        }
        #expect(cache.count == DirectorySearchCache.capacity)
        #expect(cache.stations(for: StationSearchQuery(text: "q0"), now: 6_000) == nil, "the oldest went first")
    }
}
