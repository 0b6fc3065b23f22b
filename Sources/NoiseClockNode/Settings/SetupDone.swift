#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockWeb

/// `POST /api/setup/done` (http-api v1.4): the first-start wizard was finished once.
/// `"setup_done": true` goes into `settings.json` beside the values (kept by every later write of
/// the file); until then the pages offer "Set up this clock". Answered by the web server itself.
enum SetupDone {
    static let command = "setup/done"

    /// An empty body or `{"request_id": …}`; anything else is refused and changes nothing.
    static func answer(_ body: [UInt8], stateDirectory: String) -> HTTPResponse {
        let payload: CommandPayload
        do {
            payload = try CommandPayload.classify(body)
        } catch {
            return WebRouter.commandResponse(Response(command: command, requestID: nil, outcome: .failure(error)))
        }
        let requestID = payload.requestID
        switch payload {
        case .empty: break
        case .json(.object(let object)) where object.keys.allSatisfy({ $0 == "request_id" }): break
        default:
            let error = CommandError(.invalidField, "setup/done takes an empty body or {\"request_id\": …}")
            return WebRouter.commandResponse(Response(command: command, requestID: requestID, outcome: .failure(error)))
        }
        if let failure = mark(stateDirectory: stateDirectory) {
            let error = CommandError(.storageError, "could not save that setup is done: \(failure)")
            return WebRouter.commandResponse(Response(command: command, requestID: requestID, outcome: .failure(error)))
        }
        return WebRouter.commandResponse(Response(command: command, requestID: requestID, outcome: .success(["setup_done": .bool(true)])))
    }

    /// `settings.json` written again with its values and `"setup_done": true`; the error's words, or nil.
    static func mark(stateDirectory: String) -> String? {
        SettingsFileLock.lock.withLock { _ -> String? in
            var ignored: [ConfigurationWarning] = []
            let stored = WebSettings.stored(stateDirectory: stateDirectory, warnings: &ignored)
            do {
                let store = StateStore(directory: stateDirectory)
                try store.prepare()
                try store.write(WebSettings.fileName, WebSettings.document(stored, setupDone: true))
                return nil
            } catch {
                return "\(error)"
            }
        }
    }
}

extension WebSettings {
    /// Whether `settings.json` says the first-start wizard was finished (false without the file).
    static func setupDone(stateDirectory: String) -> Bool {
        guard case .success(let bytes) = FileBytes.read(stateDirectory + "/" + fileName, limit: 256 * 1024) else { return false }
        return SettingsFile.setupDone(try? JSONParser(maxDepth: 16).parse(bytes))
    }
}
