import NoiseClockCore
import Testing
@testable import NoiseClockWeb

/// `GET /api/stations/search` at the router (http-api v1.4): a checked query goes to the backend,
/// a bad one is 400 `invalid_field` naming the field before anything is asked, another method 405,
/// and it needs the token like the rest of the API.
@Suite struct StationSearchRouteTests {
    static let token = "s3cret-token-0123456789abcdef"

    func route(_ query: String?, method: String = "GET", token: String? = Self.token) -> WebAction {
        var router = WebRouter(gate: AccessGate(token: Self.token), site: WebSite(files: [:]), locale: "en")
        let headers = [(name: "host", value: "127.0.0.1:8080")] + (token.map { [(name: "authorization", value: "Bearer \($0)")] } ?? [])
        return router.route(HTTPRequest(method: method, path: "/api/stations/search", query: query, headers: headers), from: "a", now: 0)
    }

    @Test func aCheckedQueryGoesToTheBackend() {
        #expect(route("q=jazz%20%26%20blues&country=kr&tag=Smooth&limit=5")
            == .stationSearch(StationSearchQuery(text: "jazz & blues", country: "KR", tag: "smooth", limit: 5)))
        #expect(route(nil) == .stationSearch(StationSearchQuery()))
    }

    @Test(arguments: [("limit=0", "limit"), ("limit=x", "limit"), ("country=KOR", "country"), ("q=%00", "q")])
    func aBadValueIsRefusedNamingTheField(query: String, field: String) throws {
        guard case .respond(let response) = route(query) else {
            Issue.record("\(query) was not refused")
            return
        }
        let error = try JSONParser().parse(response.body)["error"]
        #expect(response.status == 400 && error?["code"] == "invalid_field", "\(String(describing: error))")
        #expect(error?["field"] == JSONValue.string(field))
    }

    @Test func otherMethodsAndNoTokenAreRefused() {
        guard case .respond(let post) = route("q=a", method: "POST"), case .respond(let anonymous) = route("q=a", token: nil) else {
            Issue.record("answered by the backend")
            return
        }
        #expect(post.status == 405 && anonymous.status == 401)
    }
}
