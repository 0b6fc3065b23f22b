import NoiseClockCore
import Synchronization

/// `settings.json`'s values the node last applied (at its start, after each Save or restore),
/// shared by every copy of the `SettingsAPI`. A restore (`POST /api/restore`) replaces the file
/// through the machine; these tell what it changed, so that it applies as a Save would
/// (http-api.md v1.3: "every state file replaced and the node reloaded").
final class AppliedSettings: Sendable {
    private let values = Mutex<[String: JSONValue]>([:])

    /// The values now applied.
    var current: [String: JSONValue] { values.withLock { $0 } }

    /// The values now applied; returns the ones before.
    func replace(with new: [String: JSONValue]) -> [String: JSONValue] {
        values.withLock { state in
            defer { state = new }
            return state
        }
    }
}
