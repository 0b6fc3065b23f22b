import NoiseClockCore
import NoiseClockPlatform
import NoiseClockWeb

/// `GET /api/backup` as the node answers it: the state files read from `state_dir`, made into
/// the backup document (docs/web.md, "Backup and restore").
struct BackupSource: Sendable {
    let stateDirectory: String
    let nodeID: String
    let now: @Sendable () -> Instant

    /// The document as a download (`noiseclock-backup-<node>.json`), or 500 naming the file that
    /// could not be read. `secrets` (`?secrets=1`): with the secrets set here (`mqtt.password`).
    func response(secrets: Bool) -> HTTPResponse {
        do {
            let document = try StateBackup.backup(directory: stateDirectory, nodeID: nodeID, now: now(), secrets: secrets)
            return HTTPResponse(status: 200, headers: [
                ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                ("Content-Disposition", "attachment; filename=\"noiseclock-backup-\(nodeID).json\""),
            ], body: document.bytes)
        } catch {
            return .error(500, code: "storage_error", "cannot make the backup: \(error.description)")
        }
    }
}
