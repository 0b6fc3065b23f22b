import NoiseClockCore
import NoiseClockPlatform

/// The one writer of `settings.json` in a running node, called only on the node's loop while it
/// carries out `NodeEffect.editSettings` (a Save, a reset, `setup/done`, a trial's confirmation
/// or end) or a restore's answer. One thread, so no lock: two changes never interleave (a read,
/// a change and a write are one step), and the web server's thread never waits for `fdatasync`.
/// (The restore's own files, `settings.json` among them, are the loop's journalled state writes.)
struct SettingsWriter: Sendable {
    let stateDirectory: String
    /// Told each set of values written, so that a restore sees what it replaces.
    let applying: AppliedSettings

    /// What `settings.json` holds now (empty without the file).
    func stored() -> [String: JSONValue] {
        var ignored: [ConfigurationWarning] = []
        return WebSettings.stored(stateDirectory: stateDirectory, warnings: &ignored)
    }

    /// `settings.json` replaced whole by `values` (`setup_done` kept); nil, or why it could not be.
    func replace(with values: [String: JSONValue]) -> String? {
        write(values, setupDone: WebSettings.setupDone(stateDirectory: stateDirectory))
    }

    /// These keys as given (nil: removed), the others as they are; nothing given, nothing written.
    func put(_ values: [String: JSONValue?]) -> String? {
        guard !values.isEmpty else { return nil }
        var stored = stored()
        for (key, value) in values {
            if let value { stored[key] = value } else { stored.removeValue(forKey: key) }
        }
        return replace(with: stored)
    }

    /// The values as they are, with `"setup_done": true` (`POST /api/setup/done`).
    func markSetupDone() -> String? {
        write(stored(), setupDone: true)
    }

    private func write(_ values: [String: JSONValue], setupDone: Bool) -> String? {
        let store = StateStore(directory: stateDirectory)
        do {
            try store.prepare()
            try store.write(WebSettings.fileName, WebSettings.document(values, setupDone: setupDone))
        } catch {
            return "\(error)"
        }
        _ = applying.replace(with: values)
        return nil
    }
}
