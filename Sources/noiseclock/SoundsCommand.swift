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
