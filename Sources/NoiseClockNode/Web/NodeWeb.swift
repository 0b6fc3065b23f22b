#if canImport(Glibc)
import Glibc
#endif
import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockWeb

/// The web app as the node sets it up: its address, its token, its server.
public enum NodeWeb {
    /// `http://<host name>:<port>/`: the machine's host name when listening on every address.
    public static func baseURL(_ web: NodeConfiguration.Web) -> String {
        let unspecified = web.host == "0.0.0.0" || web.host == "::"
        var host = unspecified ? ConfigurationFileSystem.hostName() : web.host
        if host.isEmpty { host = "localhost" }
        if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(web.port)/"
    }

    /// The token (created at first start), nil with `auth: none`. A token file that cannot be
    /// made or read is a configuration problem naming `web.token_file`.
    public static func token(_ web: NodeConfiguration.Web) throws(ConfigurationError) -> String? {
        guard web.auth == .token else { return nil }
        do {
            return try WebToken.loadOrCreate(web.tokenFile)
        } catch {
            throw ConfigurationError(key: "web.token_file", message: error.description)
        }
    }

    /// What `noiseclock web-url` prints: the address with `?token=` (which sets the cookie).
    public static func url(configPath: String, environment: [String: String]) async throws(ConfigurationError) -> String {
        let configuration = try await NodeConfiguration.load(path: configPath, environment: environment).configuration
        // The running node's address when one runs (a saved web.port applies at its next start).
        let web = RunningWeb.of(configuration)
        guard web.enabled else {
            throw ConfigurationError(key: "web.enabled", message: "the web app is off (web.enabled: false)")
        }
        let base = baseURL(web)
        guard let token = try token(web) else { return base }
        return base + "?token=" + token
    }

    /// The pages' folder: `web/` beside the sound catalog.
    static func siteDirectory() -> String? {
        guard let catalog = SoundLibrary.defaultCatalogFile(), let slash = catalog.lastIndex(of: "/") else { return nil }
        return String(catalog[..<slash]) + "/web"
    }

    static func server(
        _ configuration: NodeConfiguration, zone: ZoneRules, inbox: NodeInbox, now: @escaping @Sendable () -> Instant,
        settings: SettingsAPI? = nil, audio: AudioDesk? = nil, probe: BrokerProbe? = nil, search: StationSearchDesk? = nil, logger: Logger
    ) throws(ConfigurationError) -> WebServer {
        let web = configuration.web
        let token = try token(web)
        if token == nil && !web.isLoopbackOnly {
            let advice = "use auth: token, or host: 127.0.0.1 behind a proxy"
            logger.warning("web.auth is none: anyone who can reach \(web.host):\(web.port) can change alarms; \(advice)")
        }
        let site = siteDirectory().map(WebSite.load) ?? WebSite(files: [:])
        if site.files["/"] == nil { logger.warning("web pages not found (Resources/web); the API works, the pages do not") }
        var node = WebStateView.NodeInfo(
            nodeID: configuration.nodeID, version: NoiseClockVersion.current,
            timezone: zone.identifier, locale: configuration.locale.rawValue
        )
        node.firstStart = { [directory = configuration.stateDirectory] in WebSettings.neverTouched(stateDirectory: directory) }
        node.setupDone = { [directory = configuration.stateDirectory] in WebSettings.setupDone(stateDirectory: directory) }
        var startedAt = timespec()
        clock_gettime(CLOCK_REALTIME, &startedAt)
        node.startedMilliseconds = Int(startedAt.tv_sec) * 1000 + Int(startedAt.tv_nsec) / 1_000_000
        if let applied = settings?.applying {
            // A language saved in the web app applies at once: the pages follow it without a restart.
            let configured = configuration.locale.rawValue
            node.liveLocale = { applied.current["locale"]?.stringValue.flatMap { NodeLocale(identifier: $0)?.rawValue } ?? configured }
        }
        var options = WebServer.Options(host: web.host, port: web.port, node: node)
        options.announcedURL = baseURL(web)
        let domains = SearchDomains()
        let server = WebServer(
            options: options,
            router: WebRouter(
                gate: AccessGate(token: token), site: site, locale: configuration.locale.rawValue,
                hosts: HostPolicy(machineName: ConfigurationFileSystem.hostName(), allowed: web.allowedHosts,
                                  searchDomains: { [domains] in domains.current() })
            ),
            backend: InboxWebBackend(
                inbox: inbox, backups: BackupSource(stateDirectory: configuration.stateDirectory, nodeID: configuration.nodeID, now: now),
                settingsAPI: settings, audio: audio, probe: probe, search: search),
            logger: logger
        )
        probe?.server.withLock { $0 = server }
        search?.server.withLock { $0 = server }
        settings?.web?.server.withLock { $0 = server }
        return server
    }
}

/// The web server's way into the node: the inbox (answers come back as the loop's effects).
struct InboxWebBackend: WebBackend {
    let inbox: NodeInbox
    /// Where `GET /api/backup` reads from (nil: the API has no backups, as in tests of the server alone).
    var backups: BackupSource?
    /// `/api/settings` (nil: not offered).
    var settingsAPI: SettingsAPI?
    /// `/api/audio/devices` and `/api/audio/test` (nil: not offered).
    var audio: AudioDesk?
    /// `POST /api/mqtt/test`, answered from a thread of its own (nil: not offered).
    var probe: BrokerProbe?
    /// `GET /api/stations/search` (nil: `stream.directory_url` is none).
    var search: StationSearchDesk?

    /// A command of the table, by its case: a feature's topic through the
    /// same path as MQTT; the web app's own to their adapter (`settings`, `settings/reset`,
    /// `settings/confirm`, `setup/done` to the loop, which alone writes `settings.json`; `audio/test`,
    /// `mqtt/test` on their threads; `restore` and `restart` as the machine's own inputs). This
    /// thread writes no file. Each answer echoes `request.requestID`.
    func take(_ request: WebCommandRequest, id: UInt64, via address: String) -> WebCommandRequest.Taken {
        let command: WebCommand
        switch request.name {
        case .feature:
            return handedOn(inbox.send(.request(LocalRequest(id: id, command: request.name.rawValue, payload: request.body))))
        case .web(let web): command = web
        }
        let notHere = request.answer(.failure(CommandError(.unknownCommand, "\(command.rawValue) is not offered here")))
        switch command {
        case .audioTest:
            guard let audio else { return .answered(notHere) }
            if let refusal = AudioDesk.refusal(request) { return .answered(refusal) }
            audio.test(request, id: id)
            return .handedOn
        case .mqttTest:
            guard let probe else { return .answered(notHere) }
            probe.start(request, id: id)
            return .handedOn
        case .restart:
            return handedOn(inbox.send(.restart(local(request, id: id))))
        case .restore:
            if let refusal = settingsAPI?.restoreRefusal(request) { return .answered(refusal) }
            return handedOn(inbox.send(.restore(local(request, id: id))))
        case .settings, .settingsReset, .setupDone, .settingsConfirm:
            guard let settingsAPI, command != .settingsConfirm || settingsAPI.web != nil,
                  let edit = SettingsEdit.handedOn(request, id: id, via: address) else { return .answered(notHere) }
            return handedOn(inbox.send(.settings(edit)))
        }
    }

    private func local(_ request: WebCommandRequest, id: UInt64) -> LocalRequest {
        LocalRequest(id: id, command: request.name.rawValue, payload: request.body, requestID: request.requestID)
    }

    private func handedOn(_ sent: Bool) -> WebCommandRequest.Taken { sent ? .handedOn : .stopping }

    func backup(secrets: Bool) -> HTTPResponse {
        guard let backups else { return .error(404, code: "unknown_command", "no backups here") }
        return backups.response(secrets: secrets)
    }

    func settings() -> HTTPResponse {
        settingsAPI?.current() ?? .error(404, code: "unknown_command", "no settings here")
    }

    func audioDevices() -> HTTPResponse {
        audio?.devices() ?? .error(404, code: "unknown_command", "no sound devices here")
    }

    func searchStations(id: UInt64, query: StationSearchQuery) -> Bool {
        guard let search else { return false }
        search.search(id: id, query: query)
        return true
    }

    func requestSnapshot(id: UInt64) {
        inbox.send(.snapshot(requestID: id))
    }
}
