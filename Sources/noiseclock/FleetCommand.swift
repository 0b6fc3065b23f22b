import NoiseClockCore
import NoiseClockNode

/// `noiseclock fleet`: one row per node on the broker (from their retained topics); exit 1 when
/// an online node is not ready.
struct FleetCommand: Subcommand {
    static let name = "fleet"
    static let config = CommandOption<String>(
        "config", "Connect as this node configuration does (mqtt.*: hosts, TLS, credentials); read its base topic and discovery prefix."
    )
    static let host = CommandOption<String>("host", "The broker (instead of --config).")
    static let port = CommandOption<Int>("port", "The broker's port.", default: 1883, range: 1...65535)
    static let base = CommandOption<String>("base", "The base topic (with --host).", default: "noiseclock")
    static let json = CommandFlag("json", "Print the nodes as a JSON array.")
    static let commandOptions: [any AnyCommandOption] = [config, host, port, base, json]
    static let help = CommandHelp.text(
        usage: "noiseclock fleet [--config <config> | --host <host> [--port <port>] [--base <base>]] [--json]",
        summary: """
            Every node under the base topic, from what the broker retains: id, online, version, next
            alarm, ready (and its problems), audio, battery, last heard. Exit status 1 when an online
            node is not ready, 69 when the broker cannot be reached.
            """,
        options: commandOptions
    )

    let config: String?
    let host: String?
    let port: Int
    let base: String
    let json: Bool

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        config = try arguments.value(Self.config)
        host = try arguments.value(Self.host)
        port = try arguments.required(Self.port)
        base = try arguments.required(Self.base)
        json = arguments.flag(Self.json.name)
        try arguments.noMorePositionals()
        if (config == nil) == (host == nil) { throw UsageError("give either --config or --host") }
    }

    func run() async throws {
        var configuration: NodeConfiguration?
        if let config {
            do {
                configuration = try await NodeConfiguration.load(path: config, environment: ProcessEnvironment.current()).configuration
            } catch {
                ProcessEnvironment.printError(error.description)
                throw ExitStatus(ConfigurationError.exitCode)
            }
        }
        let view: FleetView
        do {
            if let configuration {
                view = try await FleetReader.read(configuration: configuration)
            } else {
                view = try await FleetReader.read(host: host ?? "", port: port, base: base, discoveryPrefix: "homeassistant")
            }
        } catch {
            ProcessEnvironment.printError("Error: \(error.description)")
            throw ExitStatus(69)
        }
        print(json ? view.json.serialized : view.table)
        if view.exitStatus != 0 { throw ExitStatus(view.exitStatus) }
    }
}
