import ArgumentParser
import Logging
import NoiseClockNode

@main
struct NoiseClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noiseclock",
        abstract: "A clock, alarm clock and white-noise machine driven over MQTT.",
        subcommands: [RunCommand.self, RenderCommand.self, SoundsCommand.self, PlayCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// `noiseclock [run] --config FILE`: runs the node.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the node (the default).")

    @Option(name: .long, help: "Path to the YAML configuration.")
    var config: String = "config/noiseclock.yaml"

    func run() async throws {
        let environment = ProcessEnvironment.current()
        let prepared: NodeApplication.Prepared
        do {
            prepared = try await NodeApplication.prepare(configPath: config, environment: environment)
        } catch {
            ProcessEnvironment.printError(error.description)
            throw ExitCode(ConfigurationError.exitCode)
        }
        let level = prepared.configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "noiseclock")
        do {
            try await NodeApplication.run(prepared, environment: environment, logger: logger)
        } catch {
            logger.critical("stopped: \(error)")
            throw ExitCode(1)
        }
    }
}
