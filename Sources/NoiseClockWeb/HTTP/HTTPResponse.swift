import NoiseClockCore

/// One HTTP response, serialised with `Connection: close` (the server answers one request per
/// connection; the event stream stays open).
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: value.bytes)
    }

    /// `{"ok": false, "error": {"code", "field": null, "message"}}`, the shape of a refused command.
    public static func error(_ status: Int, code: String, _ message: String) -> HTTPResponse {
        json(status, .object(JSONObject([
            ("ok", .bool(false)),
            ("error", .object(JSONObject([("code", .string(code)), ("field", .null), ("message", .string(message))]))),
        ])))
    }

    public static func html(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The status line and headers; `body` follows unless this is a stream's head.
    public func head(contentLength: Bool = true) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        for (name, value) in Self.common where header(name) == nil { text += "\(name): \(value)\r\n" }
        if contentLength { text += "Content-Length: \(body.count)\r\nConnection: close\r\n" }
        return Array((text + "\r\n").utf8)
    }

    public var serialized: [UInt8] { head() + body }

    /// Sent with every answer: nothing is cached (state changes; pages hold no secrets but
    /// follow the token), and the pages may not be framed or sniffed. The policy lets a page
    /// run, style and load only the node's own files: no inline script or style attribute, no
    /// eval, nothing from elsewhere, so markup slipped in through a label could do nothing.
    static let common: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 303: "See Other"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}
