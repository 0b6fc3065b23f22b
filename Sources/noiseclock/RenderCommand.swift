import ArgumentParser
import Logging
import NoiseClockAudio
#if canImport(Glibc)
import Glibc
#endif

/// `noiseclock render SOUND --seconds N --output FILE.wav|-`: a sound offline, same DSP as the node.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write a sound offline: a WAV file, or raw S16LE stereo on stdout with --output -."
    )

    @Argument(help: "A sound id from `noiseclock sounds`.")
    var sound: String

    @Option(help: "Length in seconds.")
    var seconds: Double = 10

    @Option(help: "A .wav file to write, or - for raw S16LE stereo on stdout.")
    var output: String

    @Option(help: "Volume 0–100 (as in noise/volume/set).")
    var volume: Int = 100

    @Option(name: .customLong("sample-rate"), help: "Output sample rate in Hz.")
    var sampleRate: Int = 48000

    @OptionGroup var sounds: SoundLibraryOptions

    func validate() throws {
        guard seconds >= 0, seconds <= 86400 else { throw ValidationError("--seconds must be 0…86400") }
        guard (0...100).contains(volume) else { throw ValidationError("--volume must be 0…100") }
        guard (8000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000") }
    }

    func run() throws {
        let library = try sounds.load(sampleRate: sampleRate)
        let renderer = OfflineRenderer(library: library)
        if output == "-" {
            try renderer.render(sound: sound, seconds: seconds, volume: volume, format: .raw, to: STDOUT_FILENO)
            return
        }
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw ValidationError("cannot write \(output): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try renderer.render(sound: sound, seconds: seconds, volume: volume, format: .wav, to: descriptor)
    }
}
