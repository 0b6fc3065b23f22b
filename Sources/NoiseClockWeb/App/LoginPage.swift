/// The one page served without access: asks for the token and sends it back as `?token=`
/// to the page that was asked for (which then sets the cookie). Of the site's files it uses
/// only `signin.css` and `signin.js`, which are served without access too.
enum LoginPage {
    static func html(locale: String, path: String, wrongToken: Bool) -> String {
        let korean = locale == "ko"
        let title = korean ? "NoiseClock 로그인" : "NoiseClock sign-in"
        let prompt = korean ? "이 노드의 웹 토큰을 입력하세요." : "Enter this node's web token."
        let hint = korean
            ? "노드에서 <code>noiseclock web-url</code>(저장소에서는 <code>make web-url</code>)을 실행하면 토큰이 포함된 주소가 나옵니다."
            : "Run <code>noiseclock web-url</code> on the node (<code>make web-url</code> in the repository) for an address that carries it."
        let wrong = korean ? "토큰이 맞지 않습니다." : "That token is not right."
        let label = korean ? "토큰" : "Token"
        let button = korean ? "열기" : "Open"
        let action = escape(path)
        return """
        <!doctype html>
        <html lang="\(korean ? "ko" : "en")"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <link rel="stylesheet" href="\(publicStyle)">
        </head>
        <body data-signin="\(wrongToken ? "wrong" : "ask")"><main>
        <form method="get" action="\(action)" data-nc="login-form">
        <h1>\(title)</h1>
        <p>\(prompt) \(hint)</p>
        \(wrongToken ? "<p class=\"error\" role=\"alert\">\(wrong)</p>" : "")
        <label for="token">\(label)</label>
        <input id="token" name="token" type="password" autocomplete="current-password" autofocus required>
        <button type="submit">\(button)</button>
        </form>
        </main>
        <script src="\(publicScript)"></script>
        </body></html>
        """
    }

    /// The sign-in page's own files, the only ones served without access (the page allows no
    /// inline style or script): its look, shared by the error pages, and its one retry.
    static let publicStyle = "/signin.css"
    static let publicScript = "/signin.js"
    static let publicFiles: Set<String> = [publicStyle, publicScript]

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
