import NoiseClockCore

/// What a request is to become, decided without I/O: the server carries it out.
public enum WebAction: Equatable, Sendable {
    case respond(HTTPResponse)
    /// `/healthz`: the server knows MQTT's and the audio's state from what the node published.
    case health
    /// `/api/state`: a snapshot from the node's loop.
    case state
    /// `/api/events`: a snapshot, then every publication.
    case events
    /// `POST /api/<command>`: looked up in the command table once the body is read
    /// (`WebCommandRequest.look(up:body:)`), then taken by the backend.
    case command(String, body: [UInt8])
    /// `GET /api/backup`: the backend reads the state files (`?secrets=1`: with the secrets).
    case backup(secrets: Bool)
    /// `GET /api/settings`: the backend reads the configuration's layers.
    case settings
    /// `GET /api/audio/devices`: the backend lists the machine's sound devices.
    case audioDevices
    /// `GET /api/stations/search` (v1.4): the backend asks the station directory (or its cache).
    case stationSearch(StationSearchQuery)
}

/// Decides each request from its head (the body is read only once this lets it through): the
/// `Host` first, then access (token, cookie, throttle), the proof of origin for a state change,
/// then the route. A `.command` comes back with an empty body; the server reads the body then.
public struct WebRouter: Sendable {
    public private(set) var gate: AccessGate
    public let site: WebSite
    public let locale: String
    public let hosts: HostPolicy

    public init(gate: AccessGate, site: WebSite, locale: String, hosts: HostPolicy = HostPolicy(machineName: "", allowed: [])) {
        self.gate = gate
        self.site = site
        self.locale = locale
        self.hosts = hosts
    }

    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    public mutating func route(_ request: HTTPRequest, from address: String, now: Int64) -> WebAction {
        guard hosts.admits(request.header("host")) else {
            return .respond(.error(421, code: "misdirected_request",
                                   "this node does not answer to that Host name; use its IP address, its host name, "
                                       + "or add the name to web.allowed_hosts"))
        }
        let isAPI = request.path == "/api" || request.path.hasPrefix("/api/")
        if request.path == "/healthz" {
            return request.method == "GET" || request.method == "HEAD" ? .health : .respond(methodNotAllowed("GET, HEAD"))
        }
        if LoginPage.publicFiles.contains(request.path) {
            return page(request)  // the sign-in page's own style and script: no secret, served before access
        }
        let queryToken = isAPI ? nil : request.queryValue("token")
        let credentials = AccessGate.Credentials(
            bearer: request.bearerToken, cookies: request.cookies(AccessGate.cookieName), query: queryToken
        )
        switch gate.check(credentials, from: address, now: now) {
        case .throttled(let seconds):
            var response = isAPI
                ? HTTPResponse.error(429, code: "too_many_requests", "too many failed tries from \(address); try again in \(seconds) s")
                : HTTPResponse.html(429, LoginPage.html(locale: locale, path: request.path, wrongToken: true))
            response.headers.append(("Retry-After", String(seconds)))
            return .respond(response)
        case .refused:
            if isAPI {
                var response = HTTPResponse.error(
                    401, code: "unauthorized",
                    "access needs the web token: Authorization: Bearer <token>, or open the web app with ?token=<token> "
                        + "(noiseclock web-url prints the address)")
                response.headers.append(("WWW-Authenticate", "Bearer"))
                return .respond(response)
            }
            let wrong = !credentials.presented.isEmpty
            return .respond(HTTPResponse.html(401, LoginPage.html(locale: locale, path: request.path, wrongToken: wrong)))
        case .allowed:
            break
        }
        if queryToken != nil, gate.requiresToken, request.method == "GET" || request.method == "HEAD" {
            return .respond(signIn(request, queryTokenMatched: gate.matches(queryToken)))
        }
        if !Self.safeMethods.contains(request.method), !gate.matches(credentials.bearer),
           !OriginProof.holds(request, required: gate.requiresToken) {
            return .respond(.error(403, code: "forbidden",
                                   "a change through the web app needs an Origin (or Sec-Fetch-Site: same-origin) of this node's own address; "
                                       + "scripts use Authorization: Bearer <token>"))
        }
        return isAPI ? api(request) : page(request)
    }

    /// `?token=` on a page with access: the same page without the token (a relative,
    /// percent-encoded path: never `//host`, a scheme or a header break). The session cookie is
    /// set only when the query's token was the right one, and then to the node's own token
    /// (never to request bytes); a wrong `?token=` beside a right cookie changes nothing.
    func signIn(_ request: HTTPRequest, queryTokenMatched: Bool) -> HTTPResponse {
        let location = CleanPath.encode(request.path) + (request.query(removing: "token").map { "?" + $0 } ?? "")
        var headers = [("Location", location)]
        if queryTokenMatched, let token = gate.token {
            // Kept 400 days (the longest browsers allow): a kiosk tablet must not be logged out.
            let value = String(decoding: token, as: UTF8.self)
            headers.append(("Set-Cookie", "\(AccessGate.cookieName)=\(value); HttpOnly; SameSite=Strict; Path=/; Max-Age=34560000"))
        }
        return HTTPResponse(status: 303, headers: headers)
    }

    func api(_ request: HTTPRequest) -> WebAction {
        switch request.path {
        case "/api/state":
            return request.method == "GET" || request.method == "HEAD" ? .state : .respond(methodNotAllowed("GET, HEAD"))
        case "/api/settings" where request.method == "GET" || request.method == "HEAD":
            return .settings
        case "/api/audio/devices" where request.method == "GET" || request.method == "HEAD":
            return .audioDevices
        case "/api/stations/search":
            guard request.method == "GET" || request.method == "HEAD" else { return .respond(methodNotAllowed("GET, HEAD")) }
            switch StationSearchQuery.parse({ request.queryValue($0) }) {
            case .success(let query): return .stationSearch(query)
            case .failure(let error): return .respond(Self.refusal(error))
            }
        case "/api/backup":
            guard request.method == "GET" || request.method == "HEAD" else { return .respond(methodNotAllowed("GET, HEAD")) }
            return .backup(secrets: request.queryValue("secrets") == "1")
        case "/api/events":
            if request.method == "HEAD" { return .respond(HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])) }
            return request.method == "GET" ? .events : .respond(methodNotAllowed("GET, HEAD"))
        default:
            let suffix = String(request.path.dropFirst("/api/".count))
            guard request.method == "POST" else {
                if suffix.isEmpty || (request.method != "GET" && request.method != "HEAD") { return .respond(methodNotAllowed("POST")) }
                return .respond(.error(404, code: "unknown_command", "no such API path: \(request.path) (commands are POST /api/<command topic>)"))
            }
            return .command(suffix, body: request.body)
        }
    }

    func page(_ request: HTTPRequest) -> WebAction {
        guard request.method == "GET" || request.method == "HEAD" else { return .respond(methodNotAllowed("GET, HEAD")) }
        guard let file = site.file(at: request.path) else {
            return .respond(ErrorPage.notFound(locale: locale, path: request.path))
        }
        return .respond(HTTPResponse(status: 200, headers: [("Content-Type", file.contentType)], body: file.bytes))
    }

    /// 400 with the error's code and field (`invalid_field`, `country`).
    static func refusal(_ error: CommandError) -> HTTPResponse {
        .json(400, .object(JSONObject([
            ("ok", .bool(false)),
            ("error", .object(JSONObject([
                ("code", .string(error.code.rawValue)), ("field", .optional(error.field)), ("message", .string(error.message)),
            ]))),
        ])))
    }

    func methodNotAllowed(_ allowed: String) -> HTTPResponse {
        var response = HTTPResponse.error(405, code: "method_not_allowed", "use \(allowed) here")
        response.headers.append(("Allow", allowed))
        return response
    }

    /// The answer to a command: the Response JSON, 200 when ok (202 for a command whose work
    /// begins once it is answered, `WebCommand.answeredBeforeItsWork`), 404 for a path that is no
    /// command, 413 for an oversized payload, 400 for any other refusal.
    public static func commandResponse(_ response: Response) -> HTTPResponse {
        let status: Int
        switch response.outcome {
        case .success:
            let accepted = if case .web(let command)? = CommandName(rawValue: response.command) { command.answeredBeforeItsWork } else { false }
            status = accepted ? 202 : 200
        case .failure(let error):
            switch error.code {
            case .unknownCommand: status = 404
            case .payloadTooLarge: status = 413
            case .shuttingDown: status = 503
            default: status = 400
            }
        }
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: response.json.bytes)
    }
}
