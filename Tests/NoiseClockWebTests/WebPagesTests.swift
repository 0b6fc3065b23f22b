import Testing
@testable import NoiseClockWeb

/// The pages' side of the v1.1 additions: the Content-Security-Policy on every answer, pages
/// that need no inline script or style, and error pages that are pages (lang, main, h1).
/// The browser tests prove the same in Chromium (Tests/Browser/test_accessibility.py).
@Suite struct WebPagesTests {
    static let token = "s3cret-token-0123456789abcdef"
    /// The repository's `Resources/web`, found from this file's path.
    static let webDirectory = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/Resources/web"

    func router(locale: String = "en") -> WebRouter {
        WebRouter(gate: AccessGate(token: Self.token), site: WebSite.load(directory: Self.webDirectory), locale: locale)
    }

    func answer(_ path: String, signedIn: Bool = true, locale: String = "en") -> HTTPResponse {
        var router = router(locale: locale)
        // A Host the node answers to (the Host check of the same issue refuses none).
        let headers = [(name: "host", value: "127.0.0.1:8080")] + (signedIn ? [(name: "authorization", value: "Bearer \(Self.token)")] : [])
        guard case .respond(let response) = router.route(HTTPRequest(method: "GET", path: path, headers: headers), from: "a", now: 0) else {
            Issue.record("\(path): not answered by the router alone")
            return HTTPResponse(status: 0)
        }
        return response
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// The serialised head's value of a header (the common headers are added there).
    func sent(_ response: HTTPResponse, _ name: String) -> String? {
        let head = String(decoding: response.head(), as: UTF8.self)
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix(name.lowercased() + ": ") {
            return String(line.dropFirst(name.count + 2))
        }
        return nil
    }

    func count(_ needle: String, in haystack: String) -> Int { haystack.split(separator: needle, omittingEmptySubsequences: false).count - 1 }

    @Test(arguments: ["/", "/alarms", "/app.js", "/no-such-page", "/signin.css"])
    func everyAnswerCarriesThePolicyAndTheHeadersSentBefore(path: String) {
        for signedIn in [true, false] {
            let response = answer(path, signedIn: signedIn)
            let open = path.hasPrefix("/signin.")
            #expect(response.status == (path == "/no-such-page" && signedIn ? 404 : signedIn || open ? 200 : 401), "\(path)")
            let policy = sent(response, "Content-Security-Policy") ?? ""
            for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"] {
                #expect(policy.contains(directive), "\(path): \(policy)")
            }
            #expect(!policy.contains("unsafe"), "\(path): \(policy)")
            #expect(sent(response, "X-Content-Type-Options") == "nosniff")
            #expect(sent(response, "Referrer-Policy") == "no-referrer")
            #expect(sent(response, "Cache-Control") == "no-store")
        }
        // A JSON error and the sign-in redirect too.
        #expect(sent(HTTPResponse.error(400, code: "bad", "x"), "Content-Security-Policy") == HTTPResponse.contentSecurityPolicy)
        var router = router()
        if case .respond(let redirect) = router.route(HTTPRequest(method: "GET", path: "/alarms", query: "token=\(Self.token)",
            headers: [(name: "host", value: "127.0.0.1:8080")]), from: "a", now: 0) {
            #expect(redirect.status == 303)
            #expect(sent(redirect, "Content-Security-Policy") == HTTPResponse.contentSecurityPolicy)
        } else {
            Issue.record("no redirect")
        }
    }

    /// Under the policy an inline script, a `style` attribute or an `on…=` handler would not run.
    @Test func noPageCarriesInlineScriptStyleOrHandlers() {
        var pages = WebSite.load(directory: Self.webDirectory).files.filter { $0.value.contentType.hasPrefix("text/html") }
            .map { ($0.key, String(decoding: $0.value.bytes, as: UTF8.self)) }
        #expect(pages.count >= 7)
        for wrong in [false, true] {
            pages.append(("sign-in", LoginPage.html(locale: "en", path: "/alarms", wrongToken: wrong)))
        }
        pages.append(("404", text(ErrorPage.notFound(locale: "ko", path: "/x"))))
        for (name, html) in pages {
            let lower = html.lowercased()
            #expect(count("<script", in: lower) == count("<script src=\"/", in: lower), "\(name): a script without src")
            #expect(!lower.contains("<style"), "\(name)")
            #expect(!lower.contains(" style="), "\(name)")
            #expect(!lower.contains("javascript:"), "\(name)")
            for handler in [" onclick=", " onload=", " onerror=", " onsubmit=", " oninput=", " onchange="] {
                #expect(!lower.contains(handler), "\(name): \(handler)")
            }
        }
    }

    @Test(arguments: ["en", "ko"])
    func theNotFoundPageIsAPageInTheNodesLanguage(locale: String) {
        let response = answer("/no/<such>&page", locale: locale)
        let html = text(response)
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(html.contains("<html lang=\"\(locale)\">"))
        #expect(count("<main", in: html) == 1)
        #expect(count("<h1", in: html) == 1)
        #expect(html.contains(locale == "ko" ? "페이지를 찾을 수 없습니다" : "Page not found"))
        #expect(html.contains("/no/&lt;such&gt;&amp;page"))
        #expect(!html.contains("<such>"))
    }

    @Test(arguments: [false, true])
    func theSignInPageHasOneMainAndOneHeading(wrongToken: Bool) {
        let html = LoginPage.html(locale: "ko", path: "/style", wrongToken: wrongToken)
        #expect(html.contains("<html lang=\"ko\">"))
        #expect(count("<main", in: html) == 1)
        #expect(count("<h1", in: html) == 1)
        #expect(html.contains("data-signin=\"\(wrongToken ? "wrong" : "ask")\""))
    }

    @Test func onlyTheSignInPagesOwnFilesAreServedWithoutAccess() {
        for path in ["/signin.css", "/signin.js"] {
            let response = answer(path, signedIn: false)
            #expect(response.status == 200, "\(path)")
            #expect(response.body == WebSite.load(directory: Self.webDirectory).file(at: path)?.bytes)
        }
        for path in ["/app.js", "/app.css", "/alarms.js", "/", "/manifest.webmanifest"] {
            let response = answer(path, signedIn: false)
            #expect(response.status == 401, "\(path)")
            #expect(text(response).contains("data-nc=\"login-form\""), "\(path)")
        }
    }
}
