import Logging
import NoiseClockNode

/// `noiseclock [run] --config FILE`: runs the node.
struct RunCommand: Subcommand {
    static let name = "run"
    static let help = """
        USAGE: noiseclock [run] [--config <config>]

        Run the node (the default).

        OPTIONS:
          --config <config>       Path to the YAML configuration. (default: config/noiseclock.yaml)
          -h, --help              Show help information.
        """
    static let options: Set<String> = ["config"]

    let config: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = arguments.string("config") ?? "config/noiseclock.yaml"
        try arguments.noMorePositionals()
    }

    func run() async throws {
        let environment = ProcessEnvironment.current()
        let prepared: NodeApplication.Prepared
        do {
            prepared = try await NodeApplication.prepare(configPath: config, environment: environment)
        } catch {
            ProcessEnvironment.printError(error.description)
            throw ExitStatus(ConfigurationError.exitCode)
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
        } catch let error as ConfigurationError {
            // Found while starting (the web token file): still a configuration problem.
            logger.critical("\(error.description)")
            throw ExitStatus(ConfigurationError.exitCode)
        } catch {
            logger.critical("stopped: \(error)")
            throw ExitStatus(1)
        }
    }
}
