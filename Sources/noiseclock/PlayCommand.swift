import Logging
import NoiseClockAudio
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// `noiseclock play SOUND --device D --seconds N`: the node's audio engine alone, in real time.
/// For trying a device (a Bluetooth speaker through bluez-alsa or PipeWire's ALSA plugin) and
/// for the benchmark's real-time CPU and RSS figures.
struct PlayCommand: Subcommand {
    static let name = "play"
    static let device = CommandOption<String>("device", "ALSA PCM name.", default: "default")
    static let seconds = CommandOption<Double>("seconds", "How long to play, in seconds.", default: 10, range: 0...86400)
    static let volume = CommandOption<Int>("volume", "Volume 0–100.", default: 40, range: 0...100)
    static let commandOptions: [any AnyCommandOption] = [device, seconds] + SoundArguments.options(volume: volume)
    static let help = CommandHelp.text(
        usage: "noiseclock play <sound> [--device <device>] [--seconds <seconds>] " + SoundArguments.usage,
        summary: "Play a sound through ALSA in real time (no MQTT).",
        arguments: [("<sound>", "A sound id from `noiseclock sounds`.")],
        options: commandOptions
    )

    let device: String
    let seconds: Double
    let played: SoundArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        played = try SoundArguments(arguments, volume: Self.volume)
        device = try arguments.required(Self.device)
        seconds = try arguments.required(Self.seconds)
    }

    func run() throws {
        let library = try played.sounds.load(sampleRate: played.sampleRate)
        let scene = try OfflineRenderer(library: library).scene(for: played.sound, volume: played.volume)
        let engine = AudioEngine(device: device, sampleRate: played.sampleRate, library: library, logger: Logger(label: "noiseclock.play"))
        engine.apply(scene)
        engine.start()
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
        engine.stop()
        let status = engine.status
        print("audio \(status.device): \(status.state.rawValue)\(status.error.map { " (\($0))" } ?? "")")
        // Scripts trying a device need to know it failed.
        if status.state == .unavailable { throw ExitStatus(1) }
    }
}
