import Logging
import NoiseClockAudio
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// `noiseclock render SOUND --seconds N --output FILE.wav|-`: a sound offline, same DSP as the node.
struct RenderCommand: Subcommand {
    static let name = "render"
    static let seconds = CommandOption<Double>("seconds", "Length in seconds.", default: 10, range: 0...86400)
    static let output = CommandOption<String>("output", "A .wav file to write, or - for raw S16LE stereo on stdout.")
    static let volume = CommandOption<Int>("volume", "Volume 0–100 (as in noise/volume/set).", default: 100, range: 0...100)
    static let commandOptions: [any AnyCommandOption] = [seconds, output] + SoundArguments.options(volume: volume)
    static let help = CommandHelp.text(
        usage: "noiseclock render <sound> --output <output> [--seconds <seconds>] " + SoundArguments.usage,
        summary: "Write a sound offline: a WAV file, or raw S16LE stereo on stdout with --output -.",
        arguments: [("<sound>", "A sound id from `noiseclock sounds`, or a station's http(s) address (played as the node plays a station).")],
        options: commandOptions
    )

    let seconds: Double
    let output: String
    let rendered: SoundArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        rendered = try SoundArguments(arguments, volume: Self.volume)
        seconds = try arguments.required(Self.seconds)
        output = try arguments.required(Self.output)
    }

    func run() throws {
        let (sound, volume) = (rendered.sound, rendered.volume)
        let library = try rendered.sounds.load(sampleRate: rendered.sampleRate)
        let renderer = OfflineRenderer(library: library)
        let station = sound.contains("://")
        if station, !Station.isValidURL(sound) {
            throw UsageError("not a station address: \(sound) (http:// or https:// with a host, no spaces)")
        }
        func render(_ format: OfflineRenderer.Format, _ descriptor: Int32) throws {
            if station {
                try renderer.render(stationURL: sound, seconds: seconds, volume: volume, userAgent: StreamSettings.defaultUserAgent,
                                    format: format, to: descriptor)
            } else {
                try renderer.render(sound: sound, seconds: seconds, volume: volume, format: format, to: descriptor)
            }
        }
        if output == "-" {
            try render(.raw, STDOUT_FILENO)
            return
        }
        let descriptor = try OutputFile.create(output)
        defer { close(descriptor) }
        do {
            try render(.wav, descriptor)
        } catch {
            // No half-written file left behind (a station that could not be heard, an unknown sound).
            unlink(output)
            throw error
        }
    }
}
