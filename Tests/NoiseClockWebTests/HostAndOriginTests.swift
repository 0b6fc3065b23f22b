import Testing
@testable import NoiseClockWeb

@Suite struct HostAndOriginTests {
    let hosts = HostPolicy(machineName: "Bedside", allowed: ["clock.home.example"])

    @Test(arguments: ["127.0.0.1", "127.0.0.1:8080", "192.168.1.23:80", "[::1]:8080", "[fe80::1]", "localhost", "LOCALHOST:8080",
                      "bedside", "bedside.local:8080", "Bedside.lan", "bedside.", "clock.home.example", "clock.home.example:443"])
    func admits(_ host: String) {
        #expect(hosts.admits(host))
    }

    @Test(arguments: ["evil.example", "evil.example:8080", "bedside2.local", "x.bedside", "localhost.evil.example", "127.0.0.1.evil.example",
                      "clock.home.example.evil", "", "::1", "[::1", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:80x", "a b", "u@127.0.0.1"])
    func refuses(_ host: String) {
        #expect(!hosts.admits(host))
    }

    @Test func refusesAMissingHostAndAnyNameWithoutAMachineName() {
        #expect(!hosts.admits(nil))
        #expect(!HostPolicy(machineName: "", allowed: []).admits("anything"))
    }

    func request(_ headers: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/api/x", headers: headers.map { (name: $0.0.lowercased(), value: $0.1) })
    }

    @Test func anOriginMustBeTheHostAndPort() {
        let host = ("Host", "127.0.0.1:8080")
        #expect(OriginProof.holds(request([host, ("Origin", "http://127.0.0.1:8080")]), required: true))
        #expect(!OriginProof.holds(request([host, ("Origin", "http://127.0.0.1:18090")]), required: true))
        #expect(!OriginProof.holds(request([host, ("Origin", "http://127.0.0.1")]), required: true))
        #expect(!OriginProof.holds(request([host, ("Origin", "null")]), required: true))
        #expect(!OriginProof.holds(request([host, ("Origin", "http://localhost:8080")]), required: true))
        #expect(!OriginProof.holds(request([host]), required: true))
        #expect(OriginProof.holds(request([host, ("Sec-Fetch-Site", "same-origin")]), required: true))
        #expect(!OriginProof.holds(request([host, ("Sec-Fetch-Site", "same-site")]), required: true))
        // Behind a TLS proxy: Host without a port, Origin on https's default port.
        #expect(OriginProof.holds(request([("Host", "clock.home.example"), ("Origin", "https://clock.home.example")]), required: true))
        // auth: none: a script without either header passes, a foreign Origin does not.
        #expect(OriginProof.holds(request([host]), required: false))
        #expect(!OriginProof.holds(request([host, ("Origin", "http://127.0.0.1:18090")]), required: false))
    }

    @Test(arguments: [
        ("/", "/"), ("/alarms", "/alarms"), ("/a%20b", "/a b"), ("/alarms/", "/alarms/"), ("/%E2%82%AC", "/€"),
    ])
    func cleanPaths(_ raw: String, _ decoded: String) {
        #expect(CleanPath.decode(ArraySlice(raw.utf8)) == decoded)
    }

    @Test(arguments: ["//evil.example/", "/%2fevil", "/%5cevil.example", "/a\\b", "/%0d%0aX:%20y", "/a/../b", "/./a", "/..", "/a//b",
                      "/%00", "/%7f", "/%ff", "/%zz", "/%2", "/%2e%2e/x", "x"])
    func uncleanPaths(_ raw: String) {
        #expect(CleanPath.decode(ArraySlice(raw.utf8)) == nil)
    }

    @Test func theRedirectEncodesEverythingButUnreservedCharactersAndSlashes() {
        #expect(CleanPath.encode("/a b/€") == "/a%20b/%E2%82%AC")
        let request = HTTPRequest(method: "GET", path: "/", query: "token=t&tab=a%0d%0aX:%20y&n=1+2")
        #expect(request.query(removing: "token") == "tab=a%0D%0AX%3A%20y&n=1%202")
    }
}
