import NoiseClockNode

/// `noiseclock web-url`: the address to open the web app (`http://<host>:<port>/?token=…`).
struct WebURLCommand: Subcommand {
    static let name = "web-url"
    static let help = """
        USAGE: noiseclock web-url [--config <config>]

        Print the address of the node's web app, with its access token (created if missing).
        Opening it signs the browser in; keep it private.

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
        do {
            print(try await NodeWeb.url(configPath: config, environment: ProcessEnvironment.current()))
        } catch {
            ProcessEnvironment.printError(error.description)
            throw ExitStatus(ConfigurationError.exitCode)
        }
    }
}
