import NoiseClockCore
import NoiseClockNode

/// `noiseclock doctor`: why there is no sound (or no broker, or no web app), one line per check.
struct DoctorCommand: Subcommand {
    static let name = "doctor"
    static let config = CommandOption<String>("config", "Path to the YAML configuration.", default: "config/noiseclock.yaml")
    static let json = CommandFlag("json", "Print the checks as JSON (for scripts).")
    static let play = CommandFlag("play", "Also play a 1 s tone on the sound device.")
    static let commandOptions: [any AnyCommandOption] = [config, json, play]
    static let help = CommandHelp.text(usage: "noiseclock doctor [--config <config>] [--json] [--play]", summary: """
            Check what the node needs: configuration, sound device and mixer, device access, broker,
            clock, web port, sounds, speech, lamp and shaker. Exit 0 when all is well, 1 otherwise.
            """, options: commandOptions)

    let config: String
    let asJSON: Bool
    let playTone: Bool

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = try arguments.required(Self.config)
        asJSON = arguments.flag(Self.json.name)
        playTone = arguments.flag(Self.play.name)
        try arguments.noMorePositionals()
    }

    func run() async throws {
        let report = await Doctor.run(configPath: config, environment: ProcessEnvironment.current(), play: playTone)
        print(asJSON ? report.json.serialized : report.text)
        if !report.healthy { throw ExitStatus(1) }
    }
}
