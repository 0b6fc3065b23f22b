import ArgumentParser

@main
struct NoiseClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "noiseclock", abstract: "A clock, alarm clock and white-noise machine driven over MQTT.",
        subcommands: [RenderCommand.self, SoundsCommand.self, PlayCommand.self])

    @Option(name: .long, help: "Path to the YAML configuration.")
    var config: String = "config/noiseclock.yaml"

    func run() async throws {}
}
