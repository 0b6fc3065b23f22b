import Foundation
import NoiseClockWeb
import Testing

/// An attacker on the same network (issue 18; http-api.md "v1.1 additions"): each reproduction
/// of the adversarial run, and what held before, against the real node over real sockets.
@Suite("Web attacks") struct WebAttackTests {
    /// The node's noise volume as `/api/state` has it.
    static func volume(_ rig: WebRig) async throws -> Int? {
        let state = try await rig.get("/api/state")
        return (state.json?["noise"] as? [String: Any])?["volume"] as? Int
    }

    @Test("no header is built from request bytes: CRLF in the path, //host and \\host give 400, no injected header, no off-site redirect")
    func headerInjectionAndOpenRedirect() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let token = rig.token
        for path in [
            "/%0d%0aSet-Cookie:%20injected=1%0d%0aX-Injected:%20yes?token=\(token)",
            "//evil.example/?token=\(token)",
            "/%5cevil.example?token=\(token)",
            "/%2e%2e/etc/passwd?token=\(token)",
            "/alarms/../x?token=\(token)",
            "/a%00b?token=\(token)",
            "/%ff%fe?token=\(token)",
        ] {
            let reply = try await rig.get(path, headers: [:])
            #expect(reply.status == 400, "\(path)")
            #expect(reply.headers["x-injected"] == nil, "\(path)")
            #expect(reply.headers["set-cookie"] == nil, "\(path)")
            #expect(reply.headers["location"] == nil, "\(path)")
        }
        // A clean sign-in keeps its other parameters, encoded again: no raw CR, LF or space.
        let signIn = try await rig.get("/alarms?tab=a%0d%0aX-Injected:%20yes&token=\(token)", headers: [:])
        #expect(signIn.status == 303)
        #expect(signIn.headers["location"] == "/alarms?tab=a%0D%0AX-Injected%3A%20yes")
        #expect(signIn.headers["x-injected"] == nil)
        #expect(signIn.headers["set-cookie"]?.hasPrefix("noiseclock_session=\(token);") == true)
    }

    @Test("the cookie is set only to a token that matched: ?token= of another value beside a right cookie changes nothing")
    func cookieOnlyFromAMatch() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let cookie = try await rig.sessionCookie()
        for query in ["x;%20Domain=example.com", "", "pwned%3D1"] {
            let reply = try await rig.get("/?token=\(query)", headers: ["Cookie": cookie])
            #expect(reply.status == 303, "\(query)")
            #expect(reply.headers["location"] == "/", "\(query)")
            #expect(reply.headers["set-cookie"] == nil, "\(query)")
        }
        let alone = try await rig.get("/?token=x;%20Domain=example.com", headers: [:])
        #expect(alone.status == 401)
        #expect(alone.headers["set-cookie"] == nil)
        #expect(try await rig.get("/api/state", headers: ["Cookie": cookie]).status == 200)
    }

    @Test("a state change with the cookie needs an Origin of the node's own host and port: the cross-port POST gets 403 and changes nothing")
    func originProof() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        #expect(try await rig.post("noise/volume/set", "20").status == 200)
        let cookie = try await rig.sessionCookie()
        let own = "http://127.0.0.1:\(rig.port)"
        // What Chromium sends for fetch(node + '/api/noise/volume/set', {method: 'POST', body: '77',
        // mode: 'no-cors', credentials: 'include'}) from a page on another port.
        let crossPort = [
            "Cookie": cookie, "Origin": "http://127.0.0.1:18090", "Content-Type": "text/plain;charset=UTF-8",
            "Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors",
        ]
        for headers in [
            crossPort,
            ["Cookie": cookie],
            ["Cookie": cookie, "Origin": "null"],
            ["Cookie": cookie, "Origin": "http://evil.example"],
            ["Cookie": cookie, "Sec-Fetch-Site": "same-site"],
            ["Cookie": cookie, "Sec-Fetch-Site": "cross-site"],
            ["Cookie": cookie, "Origin": "http://127.0.0.1:18090", "Sec-Fetch-Site": "same-origin"],
        ] {
            let reply = try await rig.post("noise/volume/set", "77", headers: headers)
            #expect(reply.status == 403, "\(headers)")
            #expect(reply.errorCode == "forbidden", "\(headers)")
        }
        let deleted = try await rig.post("alarm/add", #"{"id": "csrf", "time": "06:00"}"#, headers: crossPort)
        #expect(deleted.status == 403)
        #expect(try await Self.volume(rig) == 20)
        let alarms = try await rig.get("/api/state").json?["alarms"] as? [[String: Any]]
        #expect(alarms?.isEmpty == true)
        // The node's own pages, and scripts with the Bearer header, change things.
        #expect(try await rig.post("noise/volume/set", "30", headers: ["Cookie": cookie, "Origin": own]).status == 200)
        #expect(try await rig.post("noise/volume/set", "31", headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-origin"]).status == 200)
        #expect(try await rig.post("noise/volume/set", "32",
            headers: ["Cookie": cookie, "Origin": "http://localhost:\(rig.port)", "Host": "localhost:\(rig.port)"]).status == 200)
        #expect(try await rig.post("noise/volume/set", "33").status == 200)
        #expect(try await Self.volume(rig) == 33)
    }

    @Test("with auth: none a change from a foreign Origin is refused; a script without Origin is not")
    func originProofWithoutToken() async throws {
        let rig = try await WebRig.start(auth: "none")
        defer { rig.shutdown() }
        #expect(try await rig.post("noise/volume/set", "20", headers: [:]).status == 200)
        let foreign = try await rig.post("noise/volume/set", "77", headers: ["Origin": "http://127.0.0.1:18090"])
        #expect(foreign.status == 403)
        #expect(try await rig.get("/api/state", headers: [:]).json.flatMap { ($0["noise"] as? [String: Any])?["volume"] as? Int } == 20)
    }

    @Test("Host must be an IP, localhost, the machine's names (+ .local, + a search domain) or web.allowed_hosts; else 421 (DNS rebinding)")
    func hostCheck() async throws {
        let rig = try await WebRig.start(environment: ["NOISECLOCK_WEB_ALLOWED_HOSTS": "clock.home.example, proxy.lan"])
        defer { rig.shutdown() }
        let machine = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
        // v1.3 (issue 31, finding 10): a name under the machine's first label is no longer the
        // machine's (v1.1 admitted `<machine>.evil.example` and `<machine>.lan` alike).
        let searchDomains = SearchDomains().current()
        let foreign = ["evil.example", "example.org", "lan"].filter { !searchDomains.contains($0) }
        for host in ["evil.example", "evil.example:\(rig.port)", "127.0.0.1.evil.example", "localhost.evil.example",
                     "clock.home.example.evil", "x\(machine)", ""]
            + foreign.map({ "\(machine).\($0)" }) + ["\(machine).local.evil.example", "\(machine).evil.example:\(rig.port)"] {
            let reply = try await rig.get("/api/state", headers: rig.bearer.merging(["Host": host]) { $1 })
            #expect(reply.status == 421, "\(host)")
            #expect(reply.errorCode == "misdirected_request", "\(host)")
        }
        let noHost = try await WebTestClient.raw(port: rig.port, Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
        #expect(noHost.status == 421)
        for host in ["127.0.0.1:\(rig.port)", "127.0.0.1", "[::1]:\(rig.port)", "localhost:\(rig.port)", "LOCALHOST",
                     "\(machine):\(rig.port)", "\(machine).local", "clock.home.example", "Proxy.LAN:443"]
            + searchDomains.map({ "\(machine).\($0):\(rig.port)" }) {
            let reply = try await rig.get("/api/state", headers: rig.bearer.merging(["Host": host]) { $1 })
            #expect(reply.status == 200, "\(host)")
        }
    }

    @Test("access is decided from the headers: an unauthenticated 64 KiB body is not waited for (401 at once)")
    func accessBeforeBody() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        // Only the head is sent: the answer comes without a byte of the body.
        let head = "POST /api/alarm/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 65536\r\n\r\n"
        let reply = try await WebTestClient.raw(port: rig.port, Array(head.utf8))
        #expect(reply.status == 401)
        let foreign = "POST /api/alarm/add HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:1\r\nCookie: "
            + "noiseclock_session=\(rig.token)\r\nContent-Length: 65536\r\n\r\n"
        #expect(try await WebTestClient.raw(port: rig.port, Array(foreign.utf8)).status == 403)
        // With access, the body is read and the command runs.
        let body = #"{"id": "late", "time": "06:00"}"#
        let good = "POST /api/alarm/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
            + "Bearer \(rig.token)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let answered = try await WebTestClient.offload {
            let socket = try WebSocket(port: rig.port)
            socket.send(Array(good.utf8))
            socket.send(Array(body.utf8))
            return try WebTestClient.parse(socket.receiveAll())
        }
        #expect(answered.status == 200)
    }

    @Test("the throttle counts guesses, not requests, and forwarded-for headers do not move it to another address")
    func guessesCounted() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let three = ["Authorization": "Bearer wrong-1", "Cookie": "noiseclock_session=wrong-2"]
        for attempt in 1...3 {
            // Three guesses each: 9 in all.
            let reply = try await rig.get("/alarms?token=wrong-3", headers: three)
            #expect(reply.status == 401, "request \(attempt)")
        }
        #expect(try await rig.get("/api/state", headers: ["Authorization": "Bearer wrong-4"]).status == 401)
        let eleventh = try await rig.get("/api/state", headers: ["Authorization": "Bearer wrong-5"])
        #expect(eleventh.status == 429)
        let forwarded = rig.bearer.merging(["X-Forwarded-For": "10.0.0.7", "X-Real-IP": "10.0.0.7", "Forwarded": "for=10.0.0.7"]) { $1 }
        #expect(try await rig.get("/api/state", headers: forwarded).status == 429)
        // The throttle is per address: another client is let in.
        #expect(try await rig.get("/api/state", from: "127.0.0.3").status == 200)
    }

    /// Issue 31, finding 4: a page on another port of the same host sets
    /// `noiseclock_session=x; path=/api`; the browser sends it before the node's own cookie on
    /// every API request. Only the first value was checked: 401, the app reloaded, each reload a
    /// wrong guess, and the address was throttled, its right cookie and Bearer with it.
    @Test("cookie tossing: every noiseclock_session value is tried; a tossed one beside the right one is let in and counts nothing")
    func cookieTossing() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let cookie = try await rig.sessionCookie()
        for tossed in ["noiseclock_session=x; \(cookie)", "\(cookie); noiseclock_session=x", "noiseclock_session=; a=b; \(cookie)"] {
            // More requests than the throttle allows guesses: none of them is one.
            for attempt in 1...12 {
                let reply = try await rig.get("/api/state", headers: ["Cookie": tossed])
                #expect(reply.status == 200, "\(tossed), request \(attempt)")
            }
        }
        let change = try await rig.post("noise/volume/set", "31", headers: [
            "Cookie": "noiseclock_session=x; \(cookie)", "Origin": "http://127.0.0.1:\(rig.port)",
        ])
        #expect(change.status == 200)
        #expect(try await rig.get("/api/state").status == 200)
        // Without the right one, the tossed value is a wrong guess like any other, and a throttled
        // address stays throttled whatever it presents: the right cookie among tossed ones too.
        for _ in 1...11 { _ = try await rig.get("/api/state", headers: ["Cookie": "noiseclock_session=x"], from: "127.0.0.7") }
        #expect(try await rig.get("/api/state", headers: ["Cookie": "noiseclock_session=x; \(cookie)"], from: "127.0.0.7").status == 429)
        #expect(try await rig.get("/api/state", from: "127.0.0.7").status == 429)
    }

    @Test("HEAD is answered wherever GET is, without a body")
    func head() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        for path in ["/api/state", "/healthz", "/", "/alarms", "/app.css", "/api/events"] {
            let reply = try await WebTestClient.request(port: rig.port, "HEAD", path, headers: rig.bearer)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.body.isEmpty, "\(path)")
        }
        let state = try await WebTestClient.request(port: rig.port, "HEAD", "/api/state", headers: rig.bearer)
        #expect(state.headers["content-type"] == "application/json")
        #expect(Int(state.headers["content-length"] ?? "") ?? 0 > 100)
    }

    @Test("every path and method without access is refused before its route: 401, nothing shown, nothing changed")
    func accessOnEveryPathAndMethod() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        #expect(try await rig.post("alarm/add", #"{"id": "secret", "time": "06:10", "label": "Secret label"}"#).status == 200)
        for method in ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            for path in ["/", "/alarms", "/app.js", "/api/state", "/api/events", "/api/alarm/delete", "/api", "/nothing"] {
                for headers in [[:], ["Cookie": "noiseclock_session=nope"]] {
                    let reply = try await WebTestClient.request(port: rig.port, method, path, headers: headers,
                        body: method == "POST" ? #"{"id": "secret"}"# : nil, from: "127.0.0.4")
                    #expect(reply.status == 401 || reply.status == 429, "\(method) \(path)")
                    #expect(!reply.text.contains("Secret label"), "\(method) \(path)")
                }
            }
        }
        let alarms = try await rig.get("/api/state").json?["alarms"] as? [[String: Any]]
        #expect(alarms?.first?["id"] as? String == "secret")
    }

    @Test("smuggling: two lengths, a length beside chunked, folded headers and a pipelined second request are refused or ignored")
    func smuggling() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        #expect(try await rig.post("noise/volume/set", "10").status == 200)
        let auth = "Authorization: Bearer \(rig.token)\r\nHost: 127.0.0.1\r\n"
        let refused: [(String, Int)] = [
            ("POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: 2\r\nContent-Length: 3\r\n\r\n77", 400),
            ("POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n77\r\n0\r\n\r\n", 411),
            ("POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: 2, 2\r\n\r\n77", 400),
            ("POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: +2\r\n\r\n77", 400),
            ("POST /api/noise/volume/set HTTP/1.1\r\n\(auth) Content-Length: 2\r\n\r\n77", 400),
            ("POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length : 2\r\n\r\n77", 400),
            ("POST http://127.0.0.1/api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: 2\r\n\r\n77", 400),
        ]
        for (text, status) in refused {
            #expect(try await WebTestClient.raw(port: rig.port, Array(text.utf8)).status == status, "\(text.debugDescription)")
        }
        // One request per connection: a second one behind the first is never run.
        let pipelined = "POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: 2\r\n\r\n40"
            + "POST /api/noise/volume/set HTTP/1.1\r\n\(auth)Content-Length: 2\r\n\r\n77"
        #expect(try await WebTestClient.raw(port: rig.port, Array(pipelined.utf8)).status == 200)
        #expect(try await Self.volume(rig) == 40)
    }

    @Test("labels and paths come back escaped: no markup from a request reaches a page")
    func noMarkupFromRequests() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let label = "<script>alert(1)</script><img src=x onerror=alert(2)>"
        let body = "{\"id\": \"xss\", \"time\": \"06:00\", \"label\": \"\(label.replacingOccurrences(of: "\"", with: "\\\""))\"}"
        #expect(try await rig.post("alarm/add", body).status == 200)
        for path in ["/", "/alarms", "/%3Cscript%3Ealert(1)%3C/script%3E", "/x%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E"] {
            let reply = try await rig.get(path)
            #expect(!reply.text.contains("<script>alert"), "\(path)")
            #expect(!reply.text.contains("<img"), "\(path)")
        }
        // The API gives the label back as JSON data, for the pages to set as text.
        let alarms = try await rig.get("/api/state").json?["alarms"] as? [[String: Any]]
        #expect(alarms?.first?["label"] as? String == label)
    }
}
