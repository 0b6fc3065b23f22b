import ArgumentParser
import Logging
import NoiseClockAudio
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// `noiseclock play SOUND --device D --seconds N`: the node's audio engine alone, in real time.
/// For trying a device (a Bluetooth speaker through bluez-alsa or PipeWire's ALSA plugin) and
/// for the benchmark's real-time CPU and RSS figures.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Play a sound through ALSA in real time (no MQTT).")

    @Argument(help: "A sound id from `noiseclock sounds`.")
    var sound: String

    @Option(help: "ALSA PCM name.")
    var device: String = "default"

    @Option(help: "How long to play, in seconds.")
    var seconds: Double = 10

    @Option(help: "Volume 0–100.")
    var volume: Int = 40

    @Option(name: .customLong("sample-rate"), help: "Output sample rate in Hz.")
    var sampleRate: Int = 48000

    @OptionGroup var sounds: SoundLibraryOptions

    func run() throws {
        let library = try sounds.load(sampleRate: sampleRate)
        let scene = try OfflineRenderer(library: library).scene(for: sound, volume: volume)
        let engine = AudioEngine(device: device, sampleRate: sampleRate, library: library, logger: Logger(label: "noiseclock.play"))
        engine.apply(scene)
        engine.start()
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
        engine.stop()
        let status = engine.status
        print("audio \(status.device): \(status.state.rawValue)\(status.error.map { " (\($0))" } ?? "")")
        // Scripts trying a device need to know it failed.
        if status.state == .unavailable { throw ExitCode(1) }
    }
}
