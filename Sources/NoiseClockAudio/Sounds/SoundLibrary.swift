import Logging
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// Every sound the node can play: the synthesised ones named in `sounds.json` plus the
/// recordings in `audio.sounds_dir`, decoded once at start. Immutable, so shared freely.
public final class SoundLibrary: Sendable {
    public let catalog: SoundCatalog
    public let sampleRate: Int
    private let synths: [String: SynthSound]
    private let clips: [String: SoundClip]
    /// Where each new noise source's seed comes from (tests pass a fixed one).
    public let seeds: NoiseSeeds

    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The catalog comes from `definitions`; entries whose source this build cannot play are
    /// left out. `clips` are custom recordings, offered as both noise and alarm sounds.
    init(definitions: [SoundDefinition], clips: [(id: String, name: String, clip: SoundClip)], sampleRate: Int, seeds: NoiseSeeds = .system) {
        var synths: [String: SynthSound] = [:]
        var known: [SoundDefinition] = []
        for definition in definitions {
            guard let synth = SynthSound(source: definition.source) else { continue }
            synths[definition.entry.id] = synth
            known.append(definition)
        }
        var catalog = SoundCatalog(definitions: known)
        var clipTable: [String: SoundClip] = [:]
        for custom in clips where synths[custom.id] == nil && clipTable[custom.id] == nil {
            clipTable[custom.id] = custom.clip
            let entry = SoundCatalog.Entry(id: custom.id, name: custom.name, category: "custom")
            catalog.noise.append(entry)
            catalog.alarm.append(entry)
        }
        self.catalog = catalog
        self.synths = synths
        self.clips = clipTable
        self.sampleRate = sampleRate
        self.seeds = seeds
    }

    /// Only the built-in sounds of `Resources/sounds.json` (parsed by the caller).
    public convenience init(definitions: [SoundDefinition], sampleRate: Int, seeds: NoiseSeeds = .system) {
        self.init(definitions: definitions, clips: [], sampleRate: sampleRate, seeds: seeds)
    }

    /// A fresh source for a catalog id, seeded by `seeds`; nil for an unknown id.
    public func makeSource(_ id: String) -> (any SoundSource)? {
        if let synth = synths[id] { return synth.makeSource(sampleRate: sampleRate, seed: seeds.next()) }
        if let clip = clips[id] { return LoopSource(clip) }
        return nil
    }

    /// Reads the catalog file and decodes every audio file in `soundsDirectory` (if given).
    /// A file that cannot be decoded, or whose name gives no valid id, is logged and skipped.
    public static func load(
        catalogFile: String, soundsDirectory: String?, sampleRate: Int, seeds: NoiseSeeds = .system, logger: Logger
    ) throws(LoadError) -> SoundLibrary {
        guard let bytes = FileAccess.read(catalogFile) else { throw LoadError(description: "cannot read \(catalogFile)") }
        let definitions: [SoundDefinition]
        do {
            definitions = try SoundDefinition.parseCatalogFile(try JSONParser().parse(bytes))
        } catch {
            throw LoadError(description: "\(catalogFile): \(error)")
        }
        var clips: [(id: String, name: String, clip: SoundClip)] = []
        if let directory = soundsDirectory {
            for name in FileAccess.listFiles(directory) {
                guard let id = SoundID.derive(fromFileName: name) else {
                    logger.warning("sound file name gives no usable id; skipped", metadata: ["file": "\(name)"])
                    continue
                }
                guard !definitions.contains(where: { $0.entry.id == id }), !clips.contains(where: { $0.id == id }) else {
                    logger.warning("sound id already taken; file skipped", metadata: ["file": "\(name)", "id": "\(id)"])
                    continue
                }
                do {
                    let clip = try SoundFileDecoder.decode(path: directory + "/" + name, sampleRate: sampleRate)
                    clips.append((id, displayName(name), clip))
                    logger.info("custom sound loaded", metadata: ["file": "\(name)", "id": "\(id)", "seconds": "\(clip.frames / sampleRate)"])
                } catch {
                    logger.warning("sound file cannot be decoded; skipped", metadata: ["file": "\(name)", "error": "\(error)"])
                }
            }
        }
        return SoundLibrary(definitions: definitions, clips: clips, sampleRate: sampleRate, seeds: seeds)
    }

    /// `heavy rain.flac` -> `heavy rain`.
    private static func displayName(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
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
