import Logging
import NoiseClockNode
#if canImport(Glibc)
import Glibc
#endif

/// One of `run`, `render`, `sounds`, `play`.
protocol Subcommand: Sendable {
    static var name: String { get }
    /// The usage line and the options, as `noiseclock NAME --help` prints them.
    static var help: String { get }
    static var options: Set<String> { get }
    static var flags: Set<String> { get }
    init(_ arguments: CommandLineArguments) throws(UsageError)
    func run() async throws
}

extension Subcommand {
    static var flags: Set<String> { [] }
    static var usage: String { String(help.split(separator: "\n").first ?? "") }
}

@main
enum NoiseClockCommand {
    static var subcommands: [any Subcommand.Type] { [RunCommand.self, RenderCommand.self, SoundsCommand.self, PlayCommand.self] }

    static let help = """
        A clock, alarm clock and white-noise machine driven over MQTT.

        USAGE: noiseclock [run] --config FILE
               noiseclock <subcommand> [options]

        SUBCOMMANDS:
          run (default)  Run the node.
          render         Write a sound offline: a WAV file, or raw S16LE stereo on stdout with --output -.
          sounds         List the sound catalog.
          play           Play a sound through ALSA in real time (no MQTT).

          See 'noiseclock <subcommand> --help' for its options.
        """

    /// Exit status: 0; 64 for a usage error; what the command asks for (2: configuration); 1 otherwise.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, ["-h", "--help", "help"].contains(first) {
            print(help)
            exit(0)
        }
        var command: any Subcommand.Type = RunCommand.self
        if let first = arguments.first, let named = subcommands.first(where: { $0.name == first }) {
            command = named
            arguments.removeFirst()
        }
        do {
            let parsed = try CommandLineArguments(arguments, options: command.options, flags: command.flags)
            if parsed.helpRequested {
                print(command.help)
                exit(0)
            }
            try await command.init(parsed).run()
            exit(0)
        } catch let error as UsageError {
            ProcessEnvironment.printError("Error: \(error.message)\n\(command.usage)\n  See 'noiseclock \(command.name) --help' for more information.")
            exit(64)
        } catch let status as ExitStatus {
            exit(status.code)
        } catch {
            ProcessEnvironment.printError("Error: \(error)")
            exit(1)
        }
    }
}

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
        } catch {
            logger.critical("stopped: \(error)")
            throw ExitStatus(1)
        }
    }
}
