#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockWeb

/// `POST /api/setup/done` (http-api v1.4): the first-start wizard was finished once.
/// `"setup_done": true` goes into `settings.json` beside the values (kept by every later write of
/// the file); until then the pages offer "Set up this clock". Carried out on the node's loop
/// (`SettingsEdit`), which writes the file, then answers.
enum SetupDone {
    /// An empty body or `{"request_id": …}`; anything else is refused and changes nothing.
    static func answer(_ request: WebCommandRequest, writer: SettingsWriter) -> HTTPResponse {
        if let refusal = request.refusalUnlessEmpty() { return refusal }
        if let failure = writer.markSetupDone() {
            return request.answer(.failure(CommandError(.storageError, "could not save that setup is done: \(failure)")))
        }
        return request.answer(.success(["setup_done": .bool(true)]))
    }
}

extension WebSettings {
    /// Whether `settings.json` says the first-start wizard was finished (false without the file).
    static func setupDone(stateDirectory: String) -> Bool {
        guard case .success(let bytes) = FileBytes.read(stateDirectory + "/" + fileName, limit: 256 * 1024) else { return false }
        return SettingsFile.setupDone(try? JSONParser(maxDepth: 16).parse(bytes))
    }
}
