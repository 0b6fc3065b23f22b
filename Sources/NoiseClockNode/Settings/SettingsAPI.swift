import NoiseClockCore
import NoiseClockPlatform
import NoiseClockWeb

/// `GET /api/settings`, `POST /api/settings`, `POST /api/settings/reset` (http-api.md v1.3): every
/// key of the configuration with its value, its source and when a change applies; a change
/// checked by the very loader the node starts with, the whole configuration at once (a refusal
/// names the key in the file's words and changes nothing), then kept in `settings.json`.
/// `GET` is answered on the web server's thread; a change on the node's loop, the file's one writer
/// (`SettingsEdit`, `SettingsWriter`): never through MQTT, always behind the web token.
struct SettingsAPI: Sendable {
    /// Keys whose change the node takes at once (`applies: now`); the others on its next start.
    static let live: Set<String> = Set(["timezone", "locale", "audio.device", "audio.sounds_dir"]).union(rebound)
        .union(BrokerSwitch.keys).union(WebSwitch.keys)

    /// The lamp, the shaker and the buttons, re-bound at once (`NodeInput.rebind`).
    static let rebound: Set<String> = Set(ConfigurationSchema.keys.map(\.path).filter {
        $0.hasPrefix("devices.") || $0 == "buttons" || $0.hasPrefix("button_timing.")
    })

    let configPath: String
    let environment: [String: String]
    let stateDirectory: String
    /// Told the configuration after each saved change, to apply what applies now.
    var applied: @Sendable (NodeConfiguration) -> Void = { _ in }
    /// Tries a new broker live and rolls it back when it does not connect (nil: the broker keys apply at the next start).
    var broker: BrokerSwitch?
    /// Puts a new web address or access on trial until confirmed (nil: they apply at the next start).
    var web: WebSwitch?
    /// What `settings.json` held when last written or applied (`started()`, each write, each restore).
    let applying = AppliedSettings()

    /// The file's one writer (used on the node's loop only).
    var writer: SettingsWriter { SettingsWriter(stateDirectory: stateDirectory, applying: applying) }

    func current() -> HTTPResponse {
        do {
            return Self.answer(try NodeConfiguration.loadNow(path: configPath, environment: environment).values, extra: lockoutStatus)
        } catch {
            return Self.refusal(CommandError(.invalidField, field: error.key, "\(error.key): \(error.message)"))
        }
    }

    /// `{key: value, …}`; `null` takes a key back to the file's value (`request_id` is no key: echoed).
    func change(_ request: WebCommandRequest) -> HTTPResponse {
        guard let object = (try? JSONParser(maxDepth: 16).parse(request.body))?.objectValue else {
            return request.answer(.failure(CommandError(.invalidJSON, "POST /api/settings takes a JSON object of keys and values")))
        }
        var candidate = stored()
        for (key, value) in object.pairs where key != "request_id" {
            if let problem = Self.problem(settable: key, environment: environment) { return request.answer(.failure(problem)) }
            // Not `candidate[key] = value.isNull ? nil : value`: JSONValue is ExpressibleByNilLiteral,
            // so that `nil` is `.null` and stayed in settings.json.
            if value.isNull { candidate.removeValue(forKey: key) } else { candidate[key] = value }
        }
        return save(candidate, for: request)
    }

    /// `{"keys": [...]}`: back to the file's (or default) value.
    func reset(_ request: WebCommandRequest) -> HTTPResponse {
        guard let keys = (try? JSONParser(maxDepth: 16).parse(request.body))?["keys"]?.arrayValue?.compactMap(\.stringValue) else {
            return request.answer(.failure(CommandError(.invalidJSON, "POST /api/settings/reset takes {\"keys\": [\"timezone\", …]}")))
        }
        var candidate = stored()
        for key in keys {
            guard ConfigurationSchema.keysByPath[key] != nil else {
                return request.answer(.failure(.invalidField(key, "\(key): not a configuration key")))
            }
            candidate[key] = nil
        }
        return save(candidate, for: request)
    }

    func stored() -> [String: JSONValue] {
        writer.stored()
    }

    private func save(_ candidate: [String: JSONValue], for request: WebCommandRequest) -> HTTPResponse {
        let checked: (loaded: LoadedConfiguration, values: ConfigurationValues)
        do {
            checked = try NodeConfiguration.loadNow(path: configPath, environment: environment, web: candidate)
        } catch {
            return request.answer(.failure(CommandError(.invalidField, field: error.key, "\(error.key): \(error.message)")))
        }
        let before = stored()
        if let failure = writer.replace(with: candidate) {
            return request.answer(.failure(CommandError(.storageError, "could not save the settings: \(failure)")))
        }
        applyLoaded(checked.loaded.configuration, before: before, after: candidate)
        // A web address that could not be tried put its keys back in settings.json: say so as it is now.
        if web?.status?["state"] == "failed", WebSwitch.keys.contains(where: { before[$0] != candidate[$0] }), stored() != candidate,
           let now = try? NodeConfiguration.loadNow(path: configPath, environment: environment) {
            return Self.answer(now.values, extra: lockoutStatus, to: request)
        }
        return Self.answer(checked.values, extra: lockoutStatus, to: request)
    }

    /// The node started with `settings.json` as it is now.
    func started() {
        _ = applying.replace(with: stored())
    }

    /// A restore is about to replace `settings.json` (what it replaces is `applying`, which every
    /// write of the file updates, to apply the difference and keep the secrets once it is done).
    /// The backup's settings pass the configuration loader here, on the web server's thread, which
    /// only reads (the rest, the machine checks): their refusal, or nil.
    func restoreRefusal(_ request: WebCommandRequest) -> HTTPResponse? {
        guard case .success(let contents) = Backup.read(request.body), !contents.settings.isEmpty,
              let problem = WebSettings.restoreProblem(contents.settings, configPath: configPath, environment: environment)
        else { return nil }
        return request.answer(.failure(problem))
    }

    /// The machine answered a restore ok (on the loop, which wrote its files): the settings it wrote
    /// take effect as a Save's would (checked by the loader before the restore was taken; one that
    /// no longer loads waits for the restart).
    func restored() {
        var after = stored()
        let before = applying.replace(with: after)
        // A backup holds secrets only when asked to (`?secrets=1`): one without them keeps the node's own.
        let kept = WebSettings.secrets.filter { after[$0] == nil && before[$0] != nil }
        if !kept.isEmpty {
            for key in kept { after[key] = before[key] }
            _ = writer.replace(with: after)
            _ = applying.replace(with: after)
        }
        guard before != after,
              let loaded = try? NodeConfiguration.loadNow(path: configPath, environment: environment, web: after) else { return }
        applyLoaded(loaded.loaded.configuration, before: before, after: after)
    }

    private func applyLoaded(_ configuration: NodeConfiguration, before: [String: JSONValue], after: [String: JSONValue]) {
        applied(configuration)
        // A trial keeps the keys that worked in settings.json (through this writer, before the answer).
        broker?.changed(to: configuration, before: before, after: after, writer: writer)
        web?.changed(to: configuration, before: before, after: after, writer: writer)
    }

    /// Why `key` cannot be set from the web app (nil: it can).
    static func problem(settable key: String, environment: [String: String]) -> CommandError? {
        guard let known = ConfigurationSchema.keysByPath[key] else {
            let name = String(key.prefix(64))
            // `{"speech": {"rate": 200}}`, as the YAML file nests it: the API names keys by path.
            if let example = ConfigurationSchema.keys.first(where: { $0.path.hasPrefix(name + ".") }) {
                return .invalidField(name, "\(name): a section, not a key; name each key by its path, e.g. \"\(example.path)\"")
            }
            return .invalidField(name, "\(name): not a configuration key")
        }
        if let reason = WebSettings.notSettable[key] { return .invalidField(key, "\(key): not settable from the web app (\(reason))") }
        // A password file from the environment wins over a password set here, which would go unused.
        let variables = [known.environmentVariable] + (key == "mqtt.password" ? ["NOISECLOCK_MQTT_PASSWORD_FILE"] : [])
        if let variable = variables.first(where: { !(environment[$0] ?? "").isEmpty }) {
            return .invalidField(key, "\(key): set by \(variable), which wins over the web app")
        }
        return nil
    }

    /// `{"values", "sources", "applies", "not_settable"}`: every key, in the table's order. A
    /// change of `live` keys applies at once (`now`), of the others when the node next starts.
    /// The live changes' trials (`broker`: connecting, connected or rolled back, and why).
    var lockoutStatus: [(String, JSONValue)] {
        (broker?.status.map { [("broker", $0)] } ?? []) + (web?.status.map { [("web", $0)] } ?? [])
    }

    /// `to`: the change it answers, whose command, `ok` and `request_id` come first (nil: `GET`).
    static func answer(_ values: ConfigurationValues, extra: [(String, JSONValue)] = [], to request: WebCommandRequest? = nil) -> HTTPResponse {
        var shown = JSONObject()
        var sources = JSONObject()
        var applies = JSONObject()
        for key in ConfigurationSchema.keys {
            let value = key.effectiveValue(in: values)?.json
            // A secret is write-only: whether it is set, never what it is.
            shown[key.path] = WebSettings.secrets.contains(key.path) ? (value == nil ? .null : "set") : value ?? .null
            sources[key.path] = .string(values.source(key))
            applies[key.path] = live.contains(key.path) ? "now" : "restart"
        }
        let fixed = JSONObject(WebSettings.notSettable.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        let echo: [(String, JSONValue)] = request.map {
            [("command", .string($0.name.rawValue)), ("ok", true), ("request_id", $0.requestID ?? .null)]
        } ?? []
        let body = JSONValue.object(JSONObject(echo + [
            ("values", .object(shown)), ("sources", .object(sources)), ("applies", .object(applies)), ("not_settable", .object(fixed)),
        ] + extra))
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body.bytes)
    }

    /// `GET /api/settings` could not read the configuration (no command: no request id).
    static func refusal(_ error: CommandError) -> HTTPResponse {
        WebRouter.commandResponse(Response(command: WebCommand.settings.rawValue, requestID: nil, outcome: .failure(error)))
    }
}
