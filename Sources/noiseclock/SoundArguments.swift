/// What `play` and `render` both take: the sound, its volume, the output rate and the sounds to
/// load it from. Each command brings its own `--volume` (their defaults differ).
struct SoundArguments {
    static let sampleRate = CommandOption<Int>("sample-rate", "Output sample rate in Hz.", default: 48000, range: 8000...192_000)
    static let usage = "[--volume <volume>] [--sample-rate <sample-rate>] [--sounds-dir <sounds-dir>] [--catalog <catalog>]"

    static func options(volume: CommandOption<Int>) -> [any AnyCommandOption] { [volume, sampleRate] + SoundLibraryOptions.options }

    let sound: String
    let volume: Int
    let sampleRate: Int
    let sounds: SoundLibraryOptions

    init(_ arguments: CommandLineArguments, volume: CommandOption<Int>) throws(UsageError) {
        sound = try arguments.single("sound")
        self.volume = try arguments.required(volume)
        sampleRate = try arguments.required(Self.sampleRate)
        sounds = SoundLibraryOptions(arguments)
    }
}
