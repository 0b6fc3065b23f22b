#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore
import NoiseClockPlatform

/// The values changed from the web app: `<state_dir>/settings.json`, `{"version": 1, "values":
/// {"timezone": "Asia/Seoul", …}}`, written as every state file is. They win over the
/// configuration file; environment variables win over them (docs/configuration.md, "Where values live").
enum WebSettings {
    static let fileName = SettingsFile.name
    static let version = SettingsFile.version

    /// Keys the web app cannot set, and why (`GET /api/settings` lists them as `restart`, never `web`).
    static let notSettable: [String: String] = [
        "state_dir": "settings.json itself lives there",
        // `false` would end the web app at the next start, outside the no-lock-out trial: the
        // owner could not switch it back from where they switched it off.
        "web.enabled": "turning the web app off from it would lock you out at the next start: only the configuration file may",
        "web.token_file": "a file the node reads: only the configuration file may name one",
        "mqtt.password_file": "a file the node reads: only the configuration file may name one",
        "mqtt.tls.ca_file": "a file the node reads: only the configuration file may name one",
        "mqtt.tls.cert_file": "a file the node reads: only the configuration file may name one",
        "mqtt.tls.key_file": "a file the node reads: only the configuration file may name one",
    ]

    /// Keys whose value is never shown (`GET /api/settings` says `"set"` or null) and that a
    /// backup holds only when asked for its secrets (`?secrets=1`, `noiseclock backup --secrets`).
    static let secrets: Set<String> = ["mqtt.password"]

    /// Why a backup's settings cannot be restored (nil: they can), the key named as the backup
    /// names it (`settings.timezone`): each settable, and the whole configuration loading with
    /// them (an environment variable still wins over a restored value).
    static func restoreProblem(_ settings: JSONObject, configPath: String, environment: [String: String]) -> CommandError? {
        var candidate: [String: JSONValue] = [:]
        for (key, value) in settings.pairs {
            let field = "settings.\(key.prefix(64))"
            guard ConfigurationSchema.keysByPath[key] != nil else { return .invalidField(field, "\(field): not a configuration key") }
            // What the web app may not set (`web.enabled` an older node saved) is ignored at start,
            // as in a settings.json of its own: a backup from that node still restores.
            if notSettable[key] != nil { continue }
            candidate[key] = value
        }
        do {
            _ = try NodeConfiguration.loadNow(path: configPath, environment: environment, web: candidate)
        } catch {
            let field = ConfigurationSchema.keysByPath[error.key] != nil ? "settings.\(error.key)" : "settings"
            // The value came from the backup, not from this node's web app: the loader's note
            // "(set in the web app)" would send the reader to the wrong place.
            let message = error.message.hasSuffix(ConfigurationValues.webSuffix) ? String(error.message.dropLast(ConfigurationValues.webSuffix.count))
                : error.message
            return .invalidField(field, "\(field): \(message) (in the backup)")
        }
        return nil
    }

    /// No `settings.json`: nothing was ever set (or reset) from the web app (a first start).
    static func neverTouched(stateDirectory: String) -> Bool {
        var info = stat()
        return stat(stateDirectory + "/" + fileName, &info) != 0 && errno == ENOENT
    }

    /// What `settings.json` holds (empty when there is none); an unreadable one is a warning and
    /// counts as empty: the web app's settings never keep the node from starting.
    static func stored(stateDirectory: String, warnings: inout [ConfigurationWarning]) -> [String: JSONValue] {
        let path = stateDirectory + "/" + fileName
        switch FileBytes.read(path, limit: 256 * 1024) {
        case .failure(let failure) where failure.code == ENOENT: return [:]
        case .failure(let failure):
            let message = "cannot read it (\(failure.description)); the web app's settings are not used"
            warnings.append(ConfigurationWarning(key: path, message: message))
            return [:]
        case .success(let bytes):
            guard let document = try? JSONParser(maxDepth: 16).parse(bytes), let values = document["values"]?.objectValue,
                  document["version"]?.intValue == version
            else {
                let message = "not a settings file of version \(version); the web app's settings are not used"
                warnings.append(ConfigurationWarning(key: path, message: message))
                return [:]
            }
            var stored: [String: JSONValue] = [:]
            for (key, value) in values.pairs where notSettable[key] == nil && ConfigurationSchema.keysByPath[key] != nil { stored[key] = value }
            return stored
        }
    }

    /// The settings as a layer of typed values: each JSON value as the file's parser would type
    /// it, so a value of the wrong type is refused in the file's words (`expected an integer`).
    static func layer(_ stored: [String: JSONValue]) -> [String: ConfigurationValue] {
        var layer: [String: ConfigurationValue] = [:]
        for (key, value) in stored {
            guard let kind = ConfigurationSchema.keysByPath[key]?.kind else { continue }
            switch value {
            case .null: continue
            case .string(let text): layer[key] = .string(text)
            case .bool(let flag): layer[key] = .boolean(flag)
            case .int(let number): layer[key] = Int(exactly: number).map { .integer($0) } ?? .number(Double(number))
            case .double(let number): layer[key] = .number(number)
            case .array(let items):
                let texts = items.compactMap(\.stringValue)
                layer[key] = kind != .entries && texts.count == items.count ? .list(texts) : .entries(items)
            case .object: layer[key] = .entries([value])
            }
        }
        return layer
    }

    /// The file's document for `stored`, keys in the table's order (`setup_done` kept as given).
    static func document(_ stored: [String: JSONValue], setupDone: Bool) -> JSONValue {
        SettingsFile.document(JSONObject(ConfigurationSchema.keys.compactMap { key in stored[key.path].map { (key.path, $0) } }),
                              setupDone: setupDone)
    }
}

extension ConfigurationValue {
    /// As JSON, for `GET /api/settings`.
    var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .int(Int64(number))
        case .boolean(let flag): .bool(flag)
        case .number(let number): .double(number)
        case .list(let items): .array(items.map { .string($0) })
        case .entries(let entries): .array(entries)
        }
    }
}
