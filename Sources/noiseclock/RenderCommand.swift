import Logging
import NoiseClockAudio
#if canImport(Glibc)
import Glibc
#endif

/// `noiseclock render SOUND --seconds N --output FILE.wav|-`: a sound offline, same DSP as the node.
struct RenderCommand: Subcommand {
    static let name = "render"
    static let help = """
        USAGE: noiseclock render <sound> --output <output> [--seconds <seconds>] [--volume <volume>] [--sample-rate <sample-rate>] [--sounds-dir <sounds-dir>] [--catalog <catalog>]

        Write a sound offline: a WAV file, or raw S16LE stereo on stdout with --output -.

        ARGUMENTS:
          <sound>                 A sound id from `noiseclock sounds`.

        OPTIONS:
          --seconds <seconds>     Length in seconds. (default: 10.0)
          --output <output>       A .wav file to write, or - for raw S16LE stereo on stdout.
          --volume <volume>       Volume 0–100 (as in noise/volume/set). (default: 100)
          --sample-rate <sample-rate>
                                  Output sample rate in Hz. (default: 48000)
        \(SoundLibraryOptions.help)
          -h, --help              Show help information.
        """
    static let options = SoundLibraryOptions.names.union(["seconds", "output", "volume", "sample-rate"])

    let sound: String
    let seconds: Double
    let output: String
    let volume: Int
    let sampleRate: Int
    let sounds: SoundLibraryOptions

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        sound = try arguments.single("sound")
        seconds = try arguments.number("seconds", default: 10)
        output = try arguments.requiredString("output")
        volume = try arguments.integer("volume", default: 100)
        sampleRate = try arguments.integer("sample-rate", default: 48000)
        sounds = SoundLibraryOptions(arguments)
        guard seconds >= 0, seconds <= 86400 else { throw UsageError("--seconds must be 0…86400") }
        guard (0...100).contains(volume) else { throw UsageError("--volume must be 0…100") }
        guard (8000...192_000).contains(sampleRate) else { throw UsageError("--sample-rate must be 8000…192000") }
    }

    func run() throws {
        let library = try sounds.load(sampleRate: sampleRate)
        let renderer = OfflineRenderer(library: library)
        if output == "-" {
            try renderer.render(sound: sound, seconds: seconds, volume: volume, format: .raw, to: STDOUT_FILENO)
            return
        }
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw UsageError("cannot write \(output): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try renderer.render(sound: sound, seconds: seconds, volume: volume, format: .wav, to: descriptor)
    }
}
