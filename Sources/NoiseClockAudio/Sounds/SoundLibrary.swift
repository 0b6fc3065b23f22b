import Logging
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// Every sound the node can play: the synthesised ones named in `sounds.json` plus the
/// recordings in `audio.sounds_dir`, which are streamed from disk as they play (only their
/// names, lengths and loudness are held). Immutable, so shared freely.
public final class SoundLibrary: Sendable {
    public let catalog: SoundCatalog
    public let sampleRate: Int
    private let synths: [String: SynthSound]
    /// Custom recordings by id.
    public let customSounds: [String: CustomSound]
    let loudness: LoudnessStore?
    /// What a rescan starts from: the built-in definitions and the watched directory.
    let definitions: [SoundDefinition]
    public let soundsDirectory: String?
    /// Where each new noise source's seed comes from (tests pass a fixed one).
    public let seeds: NoiseSeeds

    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// A recording in `sounds_dir`, as its header describes it.
    public struct CustomSound: Sendable, Equatable {
        public var id: String
        public var name: String
        public var path: String
        public var seconds: Double
        /// The container and encoding, e.g. "FLAC (Signed 16 bit PCM)".
        public var format: String
        public var sampleRate: Int
        public var channels: Int
    }

    /// The catalog comes from `definitions`; entries whose source this build cannot play are
    /// left out. `customs` are recordings, offered as both noise and alarm sounds.
    init(
        definitions: [SoundDefinition], customs: [CustomSound], loudness: LoudnessStore?, soundsDirectory: String? = nil, sampleRate: Int,
        seeds: NoiseSeeds = .system
    ) {
        self.seeds = seeds
        self.definitions = definitions
        self.soundsDirectory = soundsDirectory
        var synths: [String: SynthSound] = [:]
        var known: [SoundDefinition] = []
        for definition in definitions {
            guard let synth = SynthSound(source: definition.source) else { continue }
            synths[definition.entry.id] = synth
            known.append(definition)
        }
        var catalog = SoundCatalog(definitions: known)
        var table: [String: CustomSound] = [:]
        for custom in customs where synths[custom.id] == nil && table[custom.id] == nil {
            table[custom.id] = custom
            let entry = SoundCatalog.Entry(
                id: custom.id, name: custom.name, category: "custom", file: .init(seconds: custom.seconds, format: custom.format)
            )
            catalog.noise.append(entry)
            catalog.alarm.append(entry)
        }
        self.catalog = catalog
        self.synths = synths
        customSounds = table
        self.loudness = loudness
        self.sampleRate = sampleRate
    }

    /// Only the built-in sounds of `Resources/sounds.json` (parsed by the caller).
    public convenience init(definitions: [SoundDefinition], sampleRate: Int, seeds: NoiseSeeds = .system) {
        self.init(definitions: definitions, customs: [], loudness: nil, sampleRate: sampleRate, seeds: seeds)
    }

    /// A fresh source for a catalog id, seeded by `seeds`; nil for an unknown id, or a custom
    /// file that cannot be opened now (gone, unreadable, undecodable). `waitsForDisk`: a stream
    /// waits for its reader instead of playing silence (offline rendering). A recording's source
    /// opens its file: never on the audio thread (the engine prepares them, `PreparedSources`).
    public func makeSource(_ id: String, waitsForDisk: Bool = false) -> (any SoundSource)? {
        if let synth = synths[id] { return synth.makeSource(sampleRate: sampleRate, seed: seeds.next()) }
        return makeStream(id, waitsForDisk: waitsForDisk)
    }

    /// Whether `id` is a recording in `sounds_dir` (played from disk) rather than a built-in sound.
    public func isRecording(_ id: String) -> Bool { customSounds[id] != nil }

    /// A recording's source, its file opened and its reader started; nil as `makeSource`.
    func makeStream(_ id: String, waitsForDisk: Bool = false) -> StreamSource? {
        guard let custom = customSounds[id] else { return nil }
        return try? StreamSource(
            path: custom.path, outputRate: sampleRate, loudness: loudness?.loudness(of: custom.path), waitsForData: waitsForDisk
        )
    }

    /// Whether `makeSource(id)` would make a source now, found without making one (no reader
    /// thread): a built-in sound, or a custom file whose header opens and can be read at the
    /// output rate. It reads the disk, so never on the audio thread (the readiness check's).
    public func canMake(_ id: String) -> Bool {
        if synths[id] != nil { return true }
        guard let custom = customSounds[id], let file = try? SoundFile(path: custom.path) else { return false }
        return (try? LoopReader(file: file, outputRate: sampleRate)) != nil
    }

    /// Waits until every custom file's loudness is measured (and remembered).
    public func waitForLoudness() { loudness?.waitForMeasurements() }

    /// Reads the catalog file and the headers of the audio files in `soundsDirectory` (if given),
    /// then measures their loudness in the background, remembered in `stateDirectory` (if given).
    /// A file that cannot be opened, or whose name gives no valid id, is logged and skipped.
    public static func load(
        catalogFile: String, soundsDirectory: String?, sampleRate: Int, stateDirectory: String? = nil, seeds: NoiseSeeds = .system,
        logger: Logger
    ) throws(LoadError) -> SoundLibrary {
        guard let bytes = FileAccess.read(catalogFile) else { throw LoadError(description: "cannot read \(catalogFile)") }
        let definitions: [SoundDefinition]
        do {
            definitions = try SoundDefinition.parseCatalogFile(try JSONParser().parse(bytes))
        } catch {
            throw LoadError(description: "\(catalogFile): \(error)")
        }
        guard let directory = soundsDirectory else {
            return SoundLibrary(definitions: definitions, customs: [], loudness: nil, sampleRate: sampleRate, seeds: seeds)
        }
        let customs = scan(directory, definitions: definitions, logger: logger)
        let store = LoudnessStore(stateDirectory: stateDirectory, logger: logger)
        store.measureInBackground(customs.map(\.path))
        return SoundLibrary(
            definitions: definitions, customs: customs, loudness: store, soundsDirectory: directory, sampleRate: sampleRate, seeds: seeds
        )
    }

    /// The same library with `sounds_dir` read again (a file added, removed or replaced); new or
    /// changed files are measured in the background. Sources already playing are not touched.
    public func rescanned(logger: Logger) -> SoundLibrary {
        guard let directory = soundsDirectory else { return self }
        let customs = Self.scan(directory, definitions: definitions, logger: logger, known: customSounds)
        loudness?.measureInBackground(customs.map(\.path))
        return SoundLibrary(
            definitions: definitions, customs: customs, loudness: loudness, soundsDirectory: directory, sampleRate: sampleRate, seeds: seeds
        )
    }

    /// The recordings in `directory` whose header reads, at most `maximumCustomSounds`. `known`:
    /// files seen before, logged again only if they changed.
    static func scan(_ directory: String, definitions: [SoundDefinition], logger: Logger, known: [String: CustomSound] = [:]) -> [CustomSound] {
        survey(directory, definitions: definitions, logger: logger, known: known).found
    }

    /// A sounds folder as the node sees it: the files it plays, and those it skips with why
    /// (`noiseclock doctor`). Logged as `scan` logs them.
    public static func survey(_ directory: String, catalogFile: String, logger: Logger) throws(LoadError) -> Survey {
        guard let bytes = FileAccess.read(catalogFile) else { throw LoadError(description: "cannot read \(catalogFile)") }
        do {
            return survey(directory, definitions: try SoundDefinition.parseCatalogFile(try JSONParser().parse(bytes)), logger: logger)
        } catch {
            throw LoadError(description: "\(catalogFile): \(error)")
        }
    }

    public struct Survey: Sendable {
        public var found: [CustomSound] = []
        /// File name and why it is not played.
        public var skipped: [(file: String, reason: String)] = []
    }

    static func survey(_ directory: String, definitions: [SoundDefinition], logger: Logger, known: [String: CustomSound] = [:]) -> Survey {
        var customs: [CustomSound] = []
        var skipped: [(file: String, reason: String)] = []
        var overLimit: [String] = []
        defer { logSkipped(overLimit, logger: logger) }
        for name in FileAccess.listFiles(directory) {
            // Bounded (SoundLibrary+Bounds.swift): past the limit a file is not even opened.
            guard customs.count < maximumCustomSounds else {
                overLimit.append(name)
                skipped.append((name, "past the folder's limit of \(maximumCustomSounds) sounds"))
                continue
            }
            let quiet = known.values.contains { $0.path == directory + "/" + name }
            guard let id = SoundID.derive(fromFileName: name) else {
                if !quiet { logger.warning("sound file name gives no usable id; skipped", metadata: ["file": "\(name)"]) }
                skipped.append((name, "its name gives no usable sound id"))
                continue
            }
            guard !definitions.contains(where: { $0.entry.id == id }), !customs.contains(where: { $0.id == id }) else {
                logger.warning("sound id already taken; file skipped", metadata: ["file": "\(name)", "id": "\(id)"])
                skipped.append((name, "the sound id \(id) is already taken"))
                continue
            }
            let path = directory + "/" + name
            do {
                // Opened without blocking, its header within `SoundFormatBounds`, or skipped here.
                let file = try SoundFile(path: path)
                let custom = CustomSound(
                    id: id, name: displayName(name), path: path, seconds: file.seconds, format: file.format,
                    sampleRate: file.sampleRate, channels: file.channels
                )
                customs.append(custom)
                if known[id] != custom {
                    logger.info("custom sound found", metadata: [
                        "file": "\(name)", "id": "\(id)", "seconds": "\(Int(file.seconds))", "format": "\(file.format)",
                    ])
                }
            } catch {
                logger.warning("sound file cannot be decoded; skipped", metadata: ["file": "\(name)", "error": "\(error)"])
                let reason = "\(error)"
                skipped.append((name, "cannot be decoded: " + (reason.hasSuffix(".") ? String(reason.dropLast()) : reason)))
            }
        }
        return Survey(found: customs, skipped: skipped)
    }

    /// `heavy rain.flac` -> `heavy rain`, cut to `maximumNameLength`.
    static func displayName(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return boundedName(fileName) }
        return boundedName(String(fileName[..<dot]))
    }

    /// Where `sounds.json` is, in this order: `$NOISECLOCK_RESOURCES/`, `<exe dir>/../share/noiseclock/`
    /// (an installed node), then `Resources/` of a checkout: `.build/<triple>/<config>/noiseclock`
    /// (what `.build/<config>` links to) is three levels below it.
    /// No Foundation `Bundle`: three plain paths are easier to reason about and to document.
    public static func defaultCatalogFile() -> String? {
        var candidates: [String] = []
        if let env = getenv("NOISECLOCK_RESOURCES") { candidates.append(String(cString: env) + "/sounds.json") }
        if let exe = FileAccess.executableDirectory() {
            candidates.append(exe + "/../share/noiseclock/sounds.json")
            candidates.append(exe + "/../../../Resources/sounds.json")
        }
        return candidates.first { access($0, R_OK) == 0 }
    }
}
