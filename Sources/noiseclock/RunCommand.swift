import Logging
import NoiseClockNode

/// `noiseclock [run] --config FILE`: runs the node.
struct RunCommand: Subcommand {
    static let name = "run"
    static let config = CommandOption<String>("config", "Path to the YAML configuration.", default: "config/noiseclock.yaml")
    static let commandOptions: [any AnyCommandOption] = [config]
    static let help = CommandHelp.text(usage: "noiseclock [run] [--config <config>]", summary: "Run the node (the default).", options: commandOptions)

    let config: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = try arguments.required(Self.config)
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
        // Every line escaped (payload text can neither forge a line nor reach the terminal raw).
        LoggingSystem.bootstrap { label in EscapedStandardError.handler(label: label, level: level) }
        let logger = Logger(label: "noiseclock")
        do {
            if try await NodeApplication.run(prepared, environment: environment, logger: logger) == .restart {
                // `safe_mode/exit`: systemd restarts a node that exits so; anywhere else it starts itself again.
                if NodeRestart.supervised(environment: environment) {
                    logger.notice("stopped to start again (exit status \(NodeRestart.exitStatus): systemd restarts the node)")
                    throw ExitStatus(NodeRestart.exitStatus)
                }
                logger.notice("starting again (re-executing /proc/self/exe)")
                let failure = NodeRestart.reexecute()
                logger.critical("could not start again: \(failure)")
                throw ExitStatus(NodeRestart.exitStatus)
            }
        } catch let error as ExitStatus {
            throw error
        } catch let error as ConfigurationError {
            // Found while starting (the web token file): still a configuration problem.
            logger.critical("\(error.description)")
            throw ExitStatus(ConfigurationError.exitCode)
        } catch let error as NewerStateFileError {
            logger.critical("\(error.description)")
            throw ExitStatus(NewerStateFileError.exitCode)
        } catch {
            logger.critical("stopped: \(error)")
            throw ExitStatus(1)
        }
    }
}
