import NoiseClockNode

/// `noiseclock web-url`: the address to open the web app (`http://<host>:<port>/?token=…`).
struct WebURLCommand: Subcommand {
    static let name = "web-url"
    static let config = CommandOption<String>("config", "Path to the YAML configuration.", default: "config/noiseclock.yaml")
    static let commandOptions: [any AnyCommandOption] = [config]
    static let help = CommandHelp.text(usage: "noiseclock web-url [--config <config>]", summary: """
            Print the address of the node's web app, with its access token (created if missing).
            Opening it signs the browser in; keep it private.
            """, options: commandOptions)

    let config: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = try arguments.required(Self.config)
        try arguments.noMorePositionals()
    }

    func run() async throws {
        do {
            print(try await NodeWeb.url(configPath: config, environment: ProcessEnvironment.current()))
        } catch {
            ProcessEnvironment.printError(error.description)
            throw ExitStatus(ConfigurationError.exitCode)
        }
    }
}
