import NoiseClockCore
import NoiseClockNode
import NoiseClockPlatform

/// `noiseclock backup --config F`: the backup document on stdout, read from `state_dir`
/// (safe beside a running node: each state file is replaced whole, never written in place).
struct BackupCommand: Subcommand {
    static let name = "backup"
    static let config = CommandOption<String>("config", "Path to the YAML configuration.", default: "config/noiseclock.yaml")
    static let commandOptions: [any AnyCommandOption] = [config]
    static let help = CommandHelp.text(usage: "noiseclock backup [--config <config>] > backup.json", summary: """
            Print a backup of what was set on this node (alarms, routines, timer presets, mixes, style, noise) as one
            JSON document, read from its state_dir; the node may be running. Restore it with noiseclock restore.
            """, options: commandOptions)

    let config: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = try arguments.required(Self.config)
        try arguments.noMorePositionals()
    }

    func run() async throws {
        let configuration: NodeConfiguration
        do {
            configuration = try await NodeConfiguration.load(path: config, environment: ProcessEnvironment.current()).configuration
        } catch {
            ProcessEnvironment.printError(error.description)
            throw ExitStatus(ConfigurationError.exitCode)
        }
        do {
            let now = NodeClock(environment: ProcessEnvironment.current()).now()
            print(try StateBackup.backup(directory: configuration.stateDirectory, nodeID: configuration.nodeID, now: now).serialized)
        } catch {
            ProcessEnvironment.printError("cannot make the backup: \(error.description)")
            throw ExitStatus(1)
        }
    }
}
