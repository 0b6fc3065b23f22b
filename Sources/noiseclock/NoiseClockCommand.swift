#if canImport(Glibc)
import Glibc
#endif
import NoiseClockCore

/// One of `run`, `render`, `sounds`, `play`, `web-url`, `fleet`, `say`, `doctor`, `backup`, `restore`.
protocol Subcommand: Sendable {
    static var name: String { get }
    /// The usage line and the options, as `noiseclock NAME --help` prints them (`CommandHelp.text`
    /// of `commandOptions`).
    static var help: String { get }
    /// Every option: the parser's names and the help's lines come from these.
    static var commandOptions: [any AnyCommandOption] { get }
    init(_ arguments: CommandLineArguments) throws(UsageError)
    func run() async throws
}

extension Subcommand {
    static var options: Set<String> { Set(commandOptions.filter(\.takesValue).map(\.name)) }
    static var flags: Set<String> { Set(commandOptions.filter { !$0.takesValue }.map(\.name)) }
    static var usage: String { String(help.split(separator: "\n").first ?? "") }
}

@main
enum NoiseClockCommand {
    static var subcommands: [any Subcommand.Type] {
        [RunCommand.self, RenderCommand.self, SoundsCommand.self, PlayCommand.self, WebURLCommand.self, FleetCommand.self, SayCommand.self,
         DoctorCommand.self, BackupCommand.self, RestoreCommand.self]
    }

    static let help = """
        A clock, alarm clock and white-noise machine driven over MQTT.

        USAGE: noiseclock [run] --config FILE
               noiseclock <subcommand> [options]
               noiseclock --version

        SUBCOMMANDS:
          run (default)  Run the node.
          render         Write a sound offline: a WAV file, or raw S16LE stereo on stdout with --output -.
          sounds         List the sound catalog.
          play           Play a sound through ALSA in real time (no MQTT).
          web-url        Print the address of the node's web app, with its token.
          fleet          Every node on the broker: online, next alarm, ready; exit 1 when one is not ready.
          say            Speak text offline into a WAV file, as the node would say it.
          doctor         Check sound device, mixer, access, broker, clock, web port, sounds; exit 1 on a problem.
          backup         Print a backup of what was set on this node (alarms, routines, mixes, style ...) as JSON.
          restore        Restore such a backup, all or nothing (the node running or not).

          See 'noiseclock <subcommand> --help' for its options.
        """

    /// Exit status: 0; 64 for a usage error; what the command asks for (2: configuration); 1 otherwise.
    static func main() async {
        // libcurl (the radio's, opened on a station's first use) brings GnuTLS in through librtmp,
        // and GnuTLS initialises itself on load (p11-kit, its tables: ~0.7 MB resident) though only
        // rtmp:// would use it, and stations are http(s) alone. Set before any thread runs.
        setenv("GNUTLS_NO_IMPLICIT_INIT", "1", 0)
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, ["-h", "--help", "help"].contains(first) {
            print(help)
            exit(0)
        }
        if arguments == ["--version"] || arguments == ["version"] {
            print(NoiseClockVersion.current)
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
            let hint = "  See 'noiseclock \(command.name) --help' for more information."
            ProcessEnvironment.printError("Error: \(error.message)\n\(command.usage)\n\(hint)")
            exit(64)
        } catch let status as ExitStatus {
            exit(status.code)
        } catch {
            ProcessEnvironment.printError("Error: \(error)")
            exit(1)
        }
    }
}
