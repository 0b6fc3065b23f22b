import Testing
@testable import NoiseClockWeb

@Suite struct HTTPRequestParserTests {
    func parse(_ text: String) -> HTTPRequestParser.Result { HTTPRequestParser.parse(Array(text.utf8)) }

    @Test func aWholeRequestWithItsBody() throws {
        let text = "POST /api/noise/volume/set?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n40"
        let result = parse(text + "GET")
        guard case .complete(let request, let consumed) = result else { Issue.record("got \(result)"); return }
        #expect(request.method == "POST")
        #expect(request.path == "/api/noise/volume/set")
        #expect(request.query == "x=1")
        #expect(request.header("host") == "a")
        #expect(request.body == Array("40".utf8))
        #expect(consumed == text.utf8.count)
    }

    @Test func waitsForTheRestOfTheHeadersAndTheBody() {
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        #expect(parse("POST /api/x HTTP/1.1\r\nContent-Length: 5\r\n\r\nab") == .incomplete)
    }

    @Test func refusesABodyOverTheLimitBeforeItArrives() {
        let result = parse("POST /api/x HTTP/1.1\r\nContent-Length: 65537\r\n\r\n")
        #expect(result == .invalid(status: 413, message: "the body is larger than 64 KiB"))
    }

    @Test func refusesOversizedHeadersWithoutTheirEnd() {
        let big = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 17_000)
        guard case .invalid(431, _) = parse(big) else { Issue.record("expected 431"); return }
    }

    @Test(arguments: [
        "GET /\r\n\r\n",
        "GET / HTTP/2\r\n\r\n",
        "GET http://x/ HTTP/1.1\r\n\r\n",
        "GE T / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Header\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET //evil.example/ HTTP/1.1\r\n\r\n",
        "GET /%0d%0aX:%20y HTTP/1.1\r\n\r\n",
    ])
    func refusesMalformedRequests(_ text: String) {
        guard case .invalid(let status, let message) = parse(text) else { Issue.record("accepted \(text.debugDescription)"); return }
        #expect(status >= 400 && status < 506)
        #expect(!message.isEmpty)
    }

    @Test func aHeadDribbledAByteAtATimeIsFoundByResumingTheScan() {
        let bytes = Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var resume = 0
        for end in 1..<bytes.count {
            guard case .incomplete(let next) = HTTPRequestParser.head(Array(bytes[..<end]), from: resume) else {
                Issue.record("complete at \(end) of \(bytes.count)"); return
            }
            #expect(next >= resume)
            resume = next
        }
        guard case .complete(let request, let bodyStart, 0) = HTTPRequestParser.head(bytes,
            from: resume) else { Issue.record("not complete"); return }
        #expect(request.path == "/a")
        #expect(bodyStart == bytes.count)
    }

    @Test func decodesThePathQueryAndCookies() throws {
        guard case .complete(let request,
            _) = parse("GET /a%20b?token=x%2By&k=v HTTP/1.1\r\nCookie: a=1; noiseclock_session=abc \r\nAuthorization: Bearer  tok \r\n\r\n") else {
            Issue.record("not parsed"); return
        }
        #expect(request.path == "/a b")
        #expect(request.queryValue("token") == "x+y")
        #expect(request.query(removing: "token") == "k=v")
        #expect(request.cookie("noiseclock_session") == "abc")
        #expect(request.bearerToken == "tok")
    }

    @Test func everyValueOfACookieInTheOrderSent() throws {
        let head = "GET / HTTP/1.1\r\nCookie: noiseclock_session=x; other=1; noiseclock_session=right\r\nCookie: noiseclock_session=z\r\n\r\n"
        guard case .complete(let request, _) = parse(head) else {
            Issue.record("not parsed"); return
        }
        #expect(request.cookies("noiseclock_session") == ["x", "right", "z"])
        #expect(request.cookies("absent").isEmpty)
    }
}
