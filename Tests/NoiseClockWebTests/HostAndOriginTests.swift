import Glibc
import Testing
@testable import NoiseClockWeb

@Suite struct HostAndOriginTests {
    /// v1.3's rule (issue 31): the machine's name, that name + `.local`, that name under one of
    /// the machine's search domains (here `home.arpa` and `lan`), IP literals, localhost, allowed_hosts.
    let hosts = HostPolicy(machineName: "Bedside", allowed: ["clock.home.example"], searchDomains: { ["home.arpa", "lan"] })

    @Test(arguments: ["127.0.0.1", "127.0.0.1:8080", "192.168.1.23:80", "[::1]:8080", "[fe80::1]", "localhost", "LOCALHOST:8080",
                      "bedside", "bedside.local:8080", "Bedside.lan", "bedside.home.arpa:8080", "bedside.home.arpa.", "bedside.",
                      "clock.home.example", "clock.home.example:443", "clock.home.example."])
    func admits(_ host: String) {
        #expect(hosts.admits(host))
    }

    @Test(arguments: ["evil.example", "evil.example:8080", "bedside2.local", "x.bedside", "localhost.evil.example", "127.0.0.1.evil.example",
                      "clock.home.example.evil", "", "::1", "[::1", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:80x", "a b", "u@127.0.0.1",
                      // DNS rebinding under the machine's first label (v1.1 admitted these): whoever owns a domain owns its names.
                      "bedside.evil.example", "bedside.evil.example:8080", "bedside.local.evil.example", "bedside.lan.evil.example",
                      "bedside.home.arpa.evil.example", "bedside.arpa", "bedside.example", "bedside..", "x.bedside.lan", "bedside.lan.."])
    func refuses(_ host: String) {
        #expect(!hosts.admits(host))
    }

    @Test func aSearchDomainCountsOnlyWhileTheMachineHasIt() {
        let noSearch = HostPolicy(machineName: "bedside", allowed: [])
        #expect(noSearch.admits("bedside.local"))
        #expect(!noSearch.admits("bedside.lan"))
        #expect(!noSearch.admits("bedside.home.arpa"))
        // A fully qualified host name is the machine's name as it is, and its first label too.
        let qualified = HostPolicy(machineName: "bedside.home.arpa", allowed: [])
        #expect(qualified.admits("bedside.home.arpa:8080"))
        #expect(qualified.admits("bedside"))
        #expect(!qualified.admits("bedside.home.arpa.evil.example"))
        #expect(!qualified.admits("bedside.evil.example"))
    }

    @Test func refusesAMissingHostAndAnyNameWithoutAMachineName() {
        #expect(!hosts.admits(nil))
        #expect(!HostPolicy(machineName: "", allowed: []).admits("anything"))
        #expect(!HostPolicy(machineName: "", allowed: [], searchDomains: { ["lan"] }).admits(".lan"))
    }

    @Test func searchDomainsComeFromSearchAndDomainLines() {
        let text = """
        # written by DHCP
        nameserver 192.168.1.1
        domain Home.Arpa.
        search lan corp.example ; a comment
        search\tsecond.example # another
        options ndots:1
        searchlike not.this
        search .
        """
        #expect(SearchDomains.parse(text) == ["home.arpa", "lan", "corp.example", "second.example"])
        #expect(SearchDomains.parse("nameserver 10.0.0.1\n").isEmpty)
    }

    @Test func searchDomainsAreReadAgainWhenTheFileChanges() throws {
        let path = "/tmp/noiseclock-resolv-\(getpid()).conf"
        defer { unlink(path) }
        try write("nameserver 10.0.0.1\n", to: path)
        let domains = SearchDomains(path: path)
        #expect(domains.current().isEmpty)
        try write("nameserver 10.0.0.1\nsearch home.arpa lan\n", to: path)
        #expect(domains.current() == ["home.arpa", "lan"])
        unlink(path)
        #expect(domains.current().isEmpty)
    }

    func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
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
