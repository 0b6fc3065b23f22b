#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore
import NoiseClockPlatform

/// Backups and restores on `state_dir` itself: `GET /api/backup` and `noiseclock backup` read
/// the state files (safe beside a running node: each file is replaced whole, and before the
/// change it holds is published or answered), `noiseclock restore` writes them while no node runs.
public enum StateBackup {
    /// The state files a backup holds, as on disk (a missing one: the node's default). An
    /// unreadable one is an error, never set aside here: that is the node's start's to do.
    public static func documents(in store: StateStore) throws(PlatformError) -> [String: JSONValue] {
        var documents: [String: JSONValue] = [:]
        for file in Backup.files {
            switch FileBytes.read(store.path(of: file)) {
            case .failure(let failure) where failure.code == ENOENT: continue
            case .failure(let failure): throw PlatformError("cannot read \(failure.description)")
            case .success(let bytes):
                do {
                    documents[file] = try JSONParser(maxDepth: 64).parse(bytes)
                } catch {
                    throw PlatformError("\(store.path(of: file)) is not valid JSON (\(error.description)); the node sets it aside at its next start")
                }
            }
        }
        return documents
    }

    /// The backup document of the node configured so, now; the secrets among its settings
    /// (`WebSettings.secrets`: `mqtt.password`) only when `secrets` asks for them.
    public static func backup(directory: String, nodeID: String, now: Instant, secrets: Bool = false) throws(PlatformError) -> JSONValue {
        let document = Backup.make(documents: try documents(in: StateStore(directory: directory)), nodeID: nodeID, now: now,
                                   nodeVersion: NoiseClockVersion.current)
        guard var object = document.objectValue, var settings = object["settings"]?.objectValue else { return document }
        // What the web app may not set (`web.enabled` an older node saved) is ignored at start and would refuse the restore.
        for key in WebSettings.notSettable.keys { settings[key] = JSONValue?.none }
        if !secrets { for key in WebSettings.secrets { settings[key] = JSONValue?.none } }
        object["settings"] = .object(settings)
        return .object(object)
    }

    /// Writes every state file of `contents`, all or nothing even under `kill -9`: the whole new
    /// set first into `RestoreJournal` (one rename makes the restore count), then each file
    /// atomically (`StateStore.write`), then the journal removed; killed between, the next opening
    /// of the directory completes it. A write that fails puts the files already written back as
    /// they were and drops the journal, so the directory holds the old state or the new one. The
    /// caller holds the `StateDirectoryLock`: no node runs.
    public static func write(_ contents: Backup.Contents, directory: String) throws(PlatformError) {
        let store = StateStore(directory: directory)
        // A restore killed before: done first, so "before" below is a whole state too.
        try RestoreJournal.complete(directory: directory, now: Instant(seconds: Int64(time(nil))))
        var before: [(file: String, bytes: [UInt8]?)] = []
        for file in Backup.files {
            switch FileBytes.read(store.path(of: file)) {
            case .success(let bytes): before.append((file, bytes))
            case .failure(let failure) where failure.code == ENOENT: before.append((file, nil))
            case .failure(let failure): throw PlatformError("cannot read \(failure.description); nothing was changed")
            }
        }
        // Written by root (`sudo noiseclock restore`): the files stay the node's user's.
        var owner = stat()
        let asRoot = geteuid() == 0 && stat(directory, &owner) == 0
        try RestoreJournal.begin(contents.documents, store: store, owner: asRoot ? (owner.st_uid, owner.st_gid) : nil)
        for (index, entry) in before.enumerated() {
            guard let document = contents.documents[entry.file] else { continue }
            do {
                try store.write(entry.file, document)
            } catch {
                let restored = before.prefix(index).allSatisfy { putBack($0.file, $0.bytes, store: store) }
                // Not all put back: the journal stays, and the next opening completes the restore instead.
                guard restored else { throw PlatformError("\(error.description); the restore completes when the node next starts") }
                RestoreJournal.end(store: store)
                throw PlatformError("\(error.description); the files written before it were put back, nothing was changed")
            }
        }
        if asRoot {
            for file in Backup.files {
                for path in [store.path(of: file), store.path(of: file) + ".tmp"] { _ = chown(path, owner.st_uid, owner.st_gid) }
            }
        }
        RestoreJournal.end(store: store)
    }

    private static func putBack(_ file: String, _ bytes: [UInt8]?, store: StateStore) -> Bool {
        guard let bytes else { return unlink(store.path(of: file)) == 0 || errno == ENOENT }
        guard let document = try? JSONParser(maxDepth: 64).parse(bytes) else { return false }
        do { try store.write(file, document) } catch { return false }
        return true
    }
}
