/// The one page served without access: asks for the token and sends it back as `?token=`
/// to the page that was asked for (which then sets the cookie). Self-contained: no file of
/// the site may be fetched before access.
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
        <style>
        body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#000;color:#ccc;font:18px system-ui,sans-serif}
        form{max-width:22rem;padding:1.5rem}
        label{display:block;margin:1rem 0 .4rem}
        input{box-sizing:border-box;width:100%;min-height:44px;font-size:18px;padding:.4rem;background:#111;color:#eee;border:1px solid #555;border-radius:6px}
        button{margin-top:1rem;min-height:44px;min-width:8rem;font-size:18px;background:#333;color:#eee;border:1px solid #666;border-radius:6px}
        .error{color:#f88}
        code{color:#fff}
        </style></head>
        <body><form method="get" action="\(action)" data-nc="login-form">
        <h1>\(title)</h1>
        <p>\(prompt) \(hint)</p>
        \(wrongToken ? "<p class=\"error\" role=\"alert\">\(wrong)</p>" : "")
        <label for="token">\(label)</label>
        <input id="token" name="token" type="password" autocomplete="current-password" autofocus required>
        <button type="submit">\(button)</button>
        </form>
        <script>
        // The session cookie is SameSite=Strict, so a link from another site (Home Assistant's
        // device page, a chat) arrives without it: load the page once more from here, where the
        // browser sends it. The time of that retry, per page, stops a loop when there is no cookie.
        (function () {
          var key = "noiseclock-signin-retry:" + location.pathname;
          var last = Number(sessionStorage.getItem(key)) || 0;
          if (\(wrongToken ? "false" : "true") && Date.now() - last > 10000) {
            sessionStorage.setItem(key, String(Date.now()));
            location.replace(location.pathname + location.search);
            return;
          }
          // A wrong token stays out of the address bar and the history.
          if (location.search.indexOf("token=") >= 0) history.replaceState(null, "", location.pathname);
        })();
        </script>
        </body></html>
        """
    }

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
