import ArgumentParser
import Logging
import NoiseClockAudio
import NoiseClockCore

/// `noiseclock sounds`: the catalog, as a table or as the `~/sounds` JSON.
struct SoundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sounds", abstract: "List the sound catalog.")

    @Flag(help: "Print the catalog as JSON (as published on ~/sounds).")
    var json = false

    @OptionGroup var sounds: SoundLibraryOptions

    func run() throws {
        let catalog = try sounds.load(sampleRate: 48000).catalog
        if json {
            print(catalog.json.serialized)
            return
        }
        for (kind, entries) in [("noise", catalog.noise), ("alarm", catalog.alarm)] {
            for entry in entries {
                print("\(kind)\t\(entry.id)\t\(entry.category)\t\(entry.name)")
            }
        }
    }
}

/// Where the catalog and custom sounds come from, shared by `render` and `sounds`.
struct SoundLibraryOptions: ParsableArguments {
    @Option(name: .customLong("sounds-dir"), help: "A directory of audio files to add as custom sounds.")
    var soundsDir: String?

    @Option(help: "The sounds.json catalog (default: $NOISECLOCK_RESOURCES, then next to the executable).")
    var catalog: String?

    func load(sampleRate: Int) throws -> SoundLibrary {
        guard let file = catalog ?? SoundLibrary.defaultCatalogFile() else {
            throw ValidationError("sounds.json not found: set NOISECLOCK_RESOURCES or pass --catalog")
        }
        var logger = Logger(label: "noiseclock.sounds")
        logger.logLevel = .warning
        do {
            return try SoundLibrary.load(catalogFile: file, soundsDirectory: soundsDir, sampleRate: sampleRate, logger: logger)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
