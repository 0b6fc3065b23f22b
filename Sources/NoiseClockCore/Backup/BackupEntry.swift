/// One part of a backup: its name in the document, the state file it comes from and goes back
/// to, the key it fills there, and the check it passes before anything is written.
///
/// The table `Backup.entries` is the one place a new state file joins backups (radio's
/// `stations` is one more line); several entries may fill one file (`alarms` and
/// `alarms_paused_until` both make `alarms.json`).
public struct BackupEntry: Sendable {
    public let name: String
    public let file: String
    /// The key in the file's document; nil: the entry is the document's fields (`noise`).
    public let key: String?
    /// A backup made before this entry existed may lack it: it is then restored as `empty`.
    public let optional: Bool
    let empty: JSONValue
    /// Drops what the node planned or ran (an alarm's `pending`, a routine's `pending`) from the
    /// stored value: a backup holds what a person set.
    let take: @Sendable (JSONValue) -> JSONValue
    /// Refuses a value the node's own commands would refuse, naming the field (`alarms[3].time`).
    let check: @Sendable (JSONValue, String) throws(BackupRefusal) -> Void

    init(_ name: String, file: String, key: String?, optional: Bool = false, empty: JSONValue = .array([]),
         take: @escaping @Sendable (JSONValue) -> JSONValue = { $0 },
         check: @escaping @Sendable (JSONValue, String) throws(BackupRefusal) -> Void) {
        self.name = name
        self.file = file
        self.key = key
        self.optional = optional
        self.empty = empty
        self.take = take
        self.check = check
    }
}
