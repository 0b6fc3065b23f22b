import Logging
import NoiseClockAudio
import NoiseClockCore

/// `noiseclock sounds`: the catalog, as a table or as the `~/sounds` JSON.
struct SoundsCommand: Subcommand {
    static let name = "sounds"
    static let json = CommandFlag("json", "Print the catalog as JSON (as published on ~/sounds).")
    static let commandOptions: [any AnyCommandOption] = [json] + SoundLibraryOptions.options
    static let help = CommandHelp.text(
        usage: "noiseclock sounds [--json] [--sounds-dir <sounds-dir>] [--catalog <catalog>]",
        summary: "List the sound catalog.",
        options: commandOptions
    )

    let json: Bool
    let sounds: SoundLibraryOptions

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        json = arguments.flag(Self.json.name)
        sounds = SoundLibraryOptions(arguments)
        try arguments.noMorePositionals()
    }

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
