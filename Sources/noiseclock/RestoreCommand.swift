import NoiseClockCore
import NoiseClockNode
import NoiseClockPlatform

/// `noiseclock restore FILE --config F`: a backup back into this node, all or nothing
/// (`TerminalRestore`: the files directly while no node runs, else through the node's web API).
struct RestoreCommand: Subcommand {
    static let name = "restore"
    static let config = CommandOption<String>("config", "Path to the YAML configuration.", default: "config/noiseclock.yaml")
    static let commandOptions: [any AnyCommandOption] = [config]
    static let help = CommandHelp.text(
        usage: "noiseclock restore <file> [--config <config>]",
        summary: """
            Restore a backup made by noiseclock backup (or the web app): checked whole first, then every state file
            replaced. With the node stopped, the files are written here (run it as the node's user, or as root); with the
            node running, the backup goes through its web app (web.enabled), which reloads it at once.
            """,
        arguments: [("<file>", "The backup (JSON), or - for standard input.")],
        options: commandOptions
    )

    let file: String
    let config: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        file = try arguments.single("file")
        config = try arguments.required(Self.config)
    }

    func run() async throws {
        let path = file == "-" ? "/dev/stdin" : file
        let bytes: [UInt8]
        switch FileBytes.read(path, limit: Backup.maximumBytes) {
        case .success(let read): bytes = read
        case .failure(let failure) where file == "-" && failure.reason != nil:
            bytes = readStandardInput()
        case .failure(let failure):
            ProcessEnvironment.printError("cannot read the backup: \(failure.description)")
            throw ExitStatus(1)
        }
        do {
            print(try await TerminalRestore.run(bytes, configPath: config, environment: ProcessEnvironment.current()))
        } catch {
            ProcessEnvironment.printError(error.description)
            throw ExitStatus(error.exitCode)
        }
    }

    /// A pipe is no regular file: read it to its end.
    private func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        while let line = readLine(strippingNewline: false), bytes.count <= Backup.maximumBytes { bytes += Array(line.utf8) }
        return bytes
    }
}
