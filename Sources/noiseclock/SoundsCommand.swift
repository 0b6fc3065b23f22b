import Logging
import NoiseClockAudio
import NoiseClockCore

/// `noiseclock sounds`: the catalog, as a table or as the `~/sounds` JSON.
struct SoundsCommand: Subcommand {
    static let name = "sounds"
    static let help = """
        USAGE: noiseclock sounds [--json] [--sounds-dir <sounds-dir>] [--catalog <catalog>]

        List the sound catalog.

        OPTIONS:
          --json                  Print the catalog as JSON (as published on ~/sounds).
        \(SoundLibraryOptions.help)
          -h, --help              Show help information.
        """
    static let options = SoundLibraryOptions.names
    static let flags: Set<String> = ["json"]

    let json: Bool
    let sounds: SoundLibraryOptions

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        json = arguments.flag("json")
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
    static let names: Set<String> = ["sounds-dir", "catalog"]
    static let help = """
          --sounds-dir <sounds-dir>
                                  A directory of audio files to add as custom sounds.
          --catalog <catalog>     The sounds.json catalog (default: $NOISECLOCK_RESOURCES, then next to the executable).
        """

    let soundsDir: String?
    let catalog: String?

    init(_ arguments: CommandLineArguments) {
        soundsDir = arguments.string("sounds-dir")
        catalog = arguments.string("catalog")
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
