import NoiseClockAudio
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// `noiseclock say TEXT --output FILE.wav`: speech offline, as the node says it (eSpeak NG,
/// brought to the node's rate by libsoxr).
struct SayCommand: Subcommand {
    static let name = "say"
    static let output = CommandOption<String>("output", "A .wav file to write (mono 16-bit).")
    static let voice = CommandOption<String>("voice", "An eSpeak NG voice (en, ko, ...).", default: "en")
    static let rate = CommandOption<Int>("rate", "Words per minute (speech.rate).", default: 160, range: 80...400)
    static let commandOptions: [any AnyCommandOption] = [output, voice, rate, SoundArguments.sampleRate]
    static let help = CommandHelp.text(
        usage: "noiseclock say <text> --output <output> [--voice <voice>] [--rate <rate>] [--sample-rate <sample-rate>]",
        summary: "Speak text offline into a WAV file, as the node would say it.",
        arguments: [("<text>", "What to say (1–300 characters).")],
        options: commandOptions
    )

    let text: String
    let output: String
    let voice: String
    let rate: Int
    let sampleRate: Int

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        // As `~/say` takes it: control characters out, then 1–300 Unicode scalars.
        text = SpeechText.clean(try arguments.single("text")).trimmingWhitespace()
        guard SpeechCommand.textLength.measure(text) != nil else {
            throw UsageError("the text must be \(SpeechCommand.textLength.description), got \(text.unicodeScalars.count)")
        }
        output = try arguments.required(Self.output)
        voice = try arguments.required(Self.voice)
        rate = try arguments.required(Self.rate)
        sampleRate = try arguments.required(SoundArguments.sampleRate)
    }

    func run() throws {
        let utterance = try SpeechSynthesizer.shared.synthesize(text, voice: voice, rate: rate)
        let samples = SpeechResampler.resample(utterance.samples, from: utterance.sampleRate, to: sampleRate)
        let bytes = SpeechWAV.bytes(samples, sampleRate: sampleRate)
        let descriptor = try OutputFile.create(output)
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw OutputFile.cannotWrite(output) }
            offset += written
        }
    }
}
