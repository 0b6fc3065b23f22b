import Logging
import NoiseClockAudio
import NoiseClockCore

/// Where the catalog and custom sounds come from, shared by `render`, `sounds` and `play`.
struct SoundLibraryOptions {
    static let soundsDir = CommandOption<String>("sounds-dir", "A directory of audio files to add as custom sounds.")
    static let catalog = CommandOption<String>(
        "catalog", "The sounds.json catalog", defaultText: "$NOISECLOCK_RESOURCES, then next to the executable")
    static let options: [any AnyCommandOption] = [soundsDir, catalog]

    let soundsDir: String?
    let catalog: String?

    init(_ arguments: CommandLineArguments) {
        soundsDir = arguments.string(Self.soundsDir.name)
        catalog = arguments.string(Self.catalog.name)
    }

    func load(sampleRate: Int) throws -> SoundLibrary {
        guard let file = catalog ?? SoundLibrary.defaultCatalogFile() else {
            throw UsageError("sounds.json not found: set NOISECLOCK_RESOURCES or pass --catalog")
        }
        var logger = Logger(label: "noiseclock.sounds")
        logger.logLevel = .warning
        do {
            return try SoundLibrary.load(catalogFile: file, soundsDirectory: soundsDir, sampleRate: sampleRate, logger: logger)
        } catch {
            throw UsageError("\(error)")
        }
    }
}
