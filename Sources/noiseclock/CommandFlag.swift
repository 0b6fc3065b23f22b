/// `--name` alone: on or off.
struct CommandFlag: AnyCommandOption {
    let name: String
    let help: String

    init(_ name: String, _ help: String) {
        self.name = name
        self.help = help
    }

    var helpLine: String { CommandHelp.line("--\(name)", help) }
    var takesValue: Bool { false }
}
