/// An error the server answers to a page as HTML (404 today): a page of its own in the node's
/// language, with one `main` and one `h1`, styled by the sign-in page's stylesheet (served
/// without access, so it can be shown before access too) and without script.
enum ErrorPage {
    static func notFound(locale: String, path: String) -> HTTPResponse {
        let korean = locale == "ko"
        return page(
            404, locale: locale,
            title: korean ? "페이지를 찾을 수 없습니다" : "Page not found",
            message: korean
                ? "이 노드에는 <code>\(LoginPage.escape(path))</code> 페이지가 없습니다."
                : "This node has no page at <code>\(LoginPage.escape(path))</code>.",
            link: korean ? "시계로 돌아가기" : "Back to the clock"
        )
    }

    /// `message` is HTML: every piece of it taken from a request must be escaped by the caller.
    static func page(_ status: Int, locale: String, title: String, message: String, link: String) -> HTTPResponse {
        .html(status, """
        <!doctype html>
        <html lang="\(locale == "ko" ? "ko" : "en")"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · NoiseClock</title>
        <link rel="stylesheet" href="\(LoginPage.publicStyle)">
        </head>
        <body><main>
        <h1>\(title)</h1>
        <p>\(message)</p>
        <p><a href="/">\(link)</a></p>
        </main></body></html>
        """)
    }
}
