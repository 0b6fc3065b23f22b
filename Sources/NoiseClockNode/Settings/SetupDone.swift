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
    /// An empty body or `{"request_id": …}`; anything else is refused and changes nothing.
    static func answer(_ request: WebCommandRequest, stateDirectory: String) -> HTTPResponse {
        if let refusal = request.refusalUnlessEmpty() { return refusal }
        if let failure = mark(stateDirectory: stateDirectory) {
            return request.answer(.failure(CommandError(.storageError, "could not save that setup is done: \(failure)")))
        }
        return request.answer(.success(["setup_done": .bool(true)]))
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
