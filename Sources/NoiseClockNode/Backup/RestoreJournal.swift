#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore
import NoiseClockPlatform

/// `<state_dir>/restore.journal`: a restore's whole new set of state files, on disk (synced,
/// renamed into place) before the first state file is replaced, removed after the last. Each
/// file is replaced atomically, but a restore replaces several: killed between two, the
/// directory held `alarms.json` from the backup and `stations.json` from before. With the
/// journal, whoever opens the directory next (the node's start, `noiseclock restore`,
/// `noiseclock backup`) completes it first, so the state is wholly the old set (killed before
/// the journal's rename) or wholly the new one (killed after it).
public enum RestoreJournal {
    public static let fileName = "restore.journal"
    static let format = "noiseclock-restore-journal"
    /// Every state file at most a backup's size, and settings: twice a backup is plenty.
    static let maximumBytes = 2 * Backup.maximumBytes

    /// Whether a restore was killed before it ended (a journal is waiting).
    public static func pending(directory: String) -> Bool {
        access(StateStore(directory: directory).path(of: fileName), F_OK) == 0
    }

    /// Writes the journal of `documents` (state file → document): after this returns, the restore
    /// is as good as done, whatever happens to the process. `owner`: the files' user when root writes.
    static func begin(_ documents: [String: JSONValue], store: StateStore, owner: (uid: uid_t, gid: gid_t)?) throws(PlatformError) {
        let files = JSONObject(Backup.files.compactMap { name in documents[name].map { (name, $0) } })
        let journal = JSONValue.object(JSONObject([("format", .string(format)), ("version", .int(1)), ("files", .object(files))]))
        let path = store.path(of: fileName)
        let spare = path + ".tmp"
        // 0600: settings.json in it may hold the broker's password.
        let fd = open(spare, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PlatformError("cannot write \(spare): \(String(cString: strerror(errno)))") }
        if let owner { _ = fchown(fd, owner.uid, owner.gid) }
        let bytes = Array((journal.serialized + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let message = String(cString: strerror(errno))
                close(fd)
                unlink(spare)
                throw PlatformError("cannot write \(spare): \(message); nothing was changed")
            }
            written += count
        }
        let synced = fdatasync(fd) == 0
        close(fd)
        guard synced, rename(spare, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(spare)
            throw PlatformError("cannot write \(path): \(message); nothing was changed")
        }
        syncDirectory(store.directory)
    }

    /// The restore is done: the journal goes (its removal synced, so it is not done twice in vain).
    static func end(store: StateStore) {
        unlink(store.path(of: fileName))
        syncDirectory(store.directory)
    }

    /// Completes a restore that was killed after its journal was written: every file of the
    /// journal written (again), then the journal removed. Returns the files written (none: no
    /// journal). A journal that cannot be read is moved aside and reported; the caller holds the lock.
    @discardableResult
    public static func complete(directory: String, now: Instant) throws(PlatformError) -> [String] {
        let store = StateStore(directory: directory)
        let path = store.path(of: fileName)
        let bytes: [UInt8]
        switch FileBytes.read(path, limit: maximumBytes) {
        case .failure(let failure) where failure.code == ENOENT: return []
        case .failure(let failure): throw PlatformError("cannot read the restore journal \(failure.description)")
        case .success(let read): bytes = read
        }
        guard let journal = try? JSONParser(maxDepth: 64).parse(bytes), journal["format"]?.stringValue == format,
              journal["version"]?.intValue == 1, let files = journal["files"]?.objectValue,
              files.keys.allSatisfy(Backup.files.contains)
        else {
            let moved = store.setAside(fileName, reason: "not a restore journal", now: now)
            throw PlatformError("\(path) is not a restore journal of this version; moved aside (\(moved)); the state files are as they were")
        }
        for (name, document) in files.pairs { try store.write(name, document) }
        // Completed by root (`sudo noiseclock backup`): the files stay the node's user's.
        var owner = stat()
        if geteuid() == 0, stat(directory, &owner) == 0 {
            for name in files.keys {
                for path in [store.path(of: name), store.path(of: name) + ".tmp"] { _ = chown(path, owner.st_uid, owner.st_gid) }
            }
        }
        end(store: store)
        return files.keys
    }

    /// At the node's start, before it reads `settings.json` or a state file: a restore killed
    /// mid-way is completed under the directory's lock. A line for the log (nil: no journal; a
    /// node that holds the lock already is left alone: this start stops at that lock anyway).
    public static func completeAtStart(directory: String) -> ConfigurationWarning? {
        guard pending(directory: directory) else { return nil }
        do {
            guard let lock = try StateDirectoryLock.acquire(directory: directory, waitingUpTo: 5) else { return nil }
            let files = try withExtendedLifetime(lock) { () throws(PlatformError) in
                try complete(directory: directory, now: Instant(seconds: Int64(time(nil))))
            }
            return ConfigurationWarning(key: "state_dir", message: "a restore was interrupted; completed it from \(fileName) "
                                            + "(\(files.count) files: \(files.joined(separator: ", ")))")
        } catch {
            return ConfigurationWarning(key: "state_dir", message: "\(fileName): \(error)")
        }
    }

    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
