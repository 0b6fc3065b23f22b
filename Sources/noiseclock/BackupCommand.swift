import NoiseClockCore
import NoiseClockNode
import NoiseClockPlatform

/// `noiseclock backup --config F`: the backup document on stdout, read from `state_dir`
/// (safe beside a running node: each state file is replaced whole, never written in place).
struct BackupCommand: Subcommand {
    static let name = "backup"
    static let config = CommandOption<String>("config", "Path to the YAML configuration.", default: "config/noiseclock.yaml")
    static let secrets = CommandFlag("secrets", "Include the secrets set from the web app (mqtt.password).")
    static let commandOptions: [any AnyCommandOption] = [config, secrets]
    static let help = CommandHelp.text(usage: "noiseclock backup [--config <config>] [--secrets] > backup.json", summary: """
            Print a backup of what was set on this node (settings changed in the web app, alarms, routines, timer presets,
            mixes, style, noise) as one JSON document, read from its state_dir; the node may be running. Restore it with
            noiseclock restore.
            """, options: commandOptions)

    let config: String
    let withSecrets: Bool

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = try arguments.required(Self.config)
        withSecrets = arguments.flag(Self.secrets.name)
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
        // A restore killed mid-way (no node started since): completed first, so the backup is one whole state.
        if let completed = RestoreJournal.completeAtStart(directory: configuration.stateDirectory) {
            ProcessEnvironment.printError(completed.description)
        }
        do {
            let now = NodeClock(environment: ProcessEnvironment.current()).now()
            print(try StateBackup.backup(directory: configuration.stateDirectory, nodeID: configuration.nodeID, now: now,
                                        secrets: withSecrets).serialized)
        } catch {
            ProcessEnvironment.printError("cannot make the backup: \(error.description)")
            throw ExitStatus(1)
        }
    }
}
