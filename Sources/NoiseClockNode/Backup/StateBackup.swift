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
        guard !secrets, var object = document.objectValue, var settings = object["settings"]?.objectValue else { return document }
        for key in WebSettings.secrets { settings[key] = JSONValue?.none }
        object["settings"] = .object(settings)
        return .object(object)
    }

    /// Writes every state file of `contents`, each atomically (`StateStore.write`); if one
    /// fails, the files already written are put back as they were, so the directory holds the
    /// old state or the new one. The caller holds the `StateDirectoryLock`: no node runs.
    public static func write(_ contents: Backup.Contents, directory: String) throws(PlatformError) {
        let store = StateStore(directory: directory)
        var before: [(file: String, bytes: [UInt8]?)] = []
        for file in Backup.files {
            switch FileBytes.read(store.path(of: file)) {
            case .success(let bytes): before.append((file, bytes))
            case .failure(let failure) where failure.code == ENOENT: before.append((file, nil))
            case .failure(let failure): throw PlatformError("cannot read \(failure.description); nothing was changed")
            }
        }
        for (index, entry) in before.enumerated() {
            guard let document = contents.documents[entry.file] else { continue }
            do {
                try store.write(entry.file, document)
            } catch {
                for written in before.prefix(index) { putBack(written.file, written.bytes, store: store) }
                throw PlatformError("\(error.description); the files written before it were put back, nothing was changed")
            }
        }
        // Written by root (`sudo noiseclock restore`): the files stay the node's user's.
        var owner = stat()
        guard geteuid() == 0, stat(directory, &owner) == 0 else { return }
        for file in Backup.files {
            for path in [store.path(of: file), store.path(of: file) + ".tmp"] { _ = chown(path, owner.st_uid, owner.st_gid) }
        }
    }

    private static func putBack(_ file: String, _ bytes: [UInt8]?, store: StateStore) {
        guard let bytes else {
            unlink(store.path(of: file))
            return
        }
        if let document = try? JSONParser(maxDepth: 64).parse(bytes) { try? store.write(file, document) }
    }
}
