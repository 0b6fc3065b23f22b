/// A backup that cannot be restored: the entry at fault (`alarms[3].time`, `format`) and why.
public struct BackupRefusal: Error, Equatable, Sendable {
    public var entry: String
    public var message: String

    public init(_ entry: String, _ message: String) {
        self.entry = entry
        self.message = message
    }

    /// As the node answers a refused command: `invalid_field`, the entry as the field.
    public var commandError: CommandError {
        CommandError(.invalidField, field: entry, "\(entry): \(message)")
    }

    /// A command's refusal of one item, placed at `path` (`alarms[3]` + `time`).
    static func item(_ path: String, _ error: CommandError) -> BackupRefusal {
        let field = error.field.map { "\(path).\($0)" } ?? path
        return BackupRefusal(field, error.message)
    }
}
