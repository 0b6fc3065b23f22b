import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform

// What `run` reads and holds before it starts: the sounds, the state directory's lock, the state files.
extension NodeApplication {
    /// The sound catalog and decoded custom files. Without a catalog the node still runs as a
    /// clock and silent alarm clock; the log says why there is no sound.
    static func loadSounds(_ configuration: NodeConfiguration, seeds: NoiseSeeds, logger: Logger) -> SoundLibrary? {
        guard let file = SoundLibrary.defaultCatalogFile() else {
            logger.error("sounds.json not found (set NOISECLOCK_RESOURCES to the folder holding it); running without sound")
            return nil
        }
        do {
            return try SoundLibrary.load(
                catalogFile: file, soundsDirectory: configuration.audio.soundsDirectory,
                sampleRate: configuration.audio.sampleRate, stateDirectory: configuration.stateDirectory, seeds: seeds,
                logger: logger
            )
        } catch {
            logger.error("sound catalog unusable; running without sound", metadata: ["file": "\(file)", "error": "\(error)"])
            return nil
        }
    }

    /// `node.lock`, held until the process ends: `noiseclock restore` writes the files itself only
    /// when no node holds it. Held by another process: this one does not start (one node per
    /// `state_dir`). Not possible at all (a read-only directory): the node runs without it, as
    /// before there was one, and says so; its writes fail there anyway.
    static func holdStateDirectory(_ directory: String, logger: Logger) throws(ConfigurationError) -> StateDirectoryLock? {
        let held: StateDirectoryLock?
        do {
            held = try StateDirectoryLock.acquire(directory: directory, waitingUpTo: 5)
        } catch {
            logger.warning("state_dir: no lock held; noiseclock restore cannot tell that this node runs", metadata: ["error": "\(error)"])
            return nil
        }
        guard let held else {
            throw ConfigurationError(key: "state_dir", message: "\(directory) is in use by another noiseclock "
                                         + "(a node, or noiseclock restore, holds \(StateDirectoryLock.fileName)); one node per state_dir")
        }
        return held
    }

    /// Reads every state file the core knows; a corrupt one is moved aside and reported, and
    /// the node starts with what it can recover. A file of a newer format stops the start, untouched.
    static func loadDocuments(store: StateStore, clock: NodeClock, logger: Logger) throws(NewerStateFileError) -> [String: JSONValue] {
        var documents: [String: JSONValue] = [:]
        for name in NodeCore.stateFileNames {
            switch store.load(name, now: clock.now()) {
            case .missing: break
            case .document(let document):
                if let version = NodeCore.newerVersion(file: name, document: document) {
                    throw NewerStateFileError(path: store.path(of: name), fileVersion: version,
                                              readableVersion: NodeCore.documentVersions[name] ?? 0)
                }
                documents[name] = document
                // Valid JSON the core cannot use in full (e.g. a newer version): keep the
                // original aside before the first write replaces it; start with what it holds.
                if let problem = NodeCore.restoreProblem(file: name, document: document),
                   case .corrupt(let reason, let movedTo) = store.setAside(name, reason: problem, now: clock.now()) {
                    logger.error("state file not fully usable; moved aside, starting with what it holds", metadata: [
                        "file": "\(store.path(of: name))", "reason": "\(reason)", "moved_to": "\(movedTo)",
                    ])
                }
            case .corrupt(let reason, let movedTo):
                logger.error("state file unreadable; moved aside, starting without it", metadata: [
                    "file": "\(store.path(of: name))", "reason": "\(reason)", "moved_to": "\(movedTo)",
                ])
            }
        }
        return documents
    }
}
