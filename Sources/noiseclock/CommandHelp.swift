/// The layout swift-argument-parser printed, kept so scripts and docs stay as they were.
enum CommandHelp {
    /// `  --name <name>           Help.`; a long left column gets the help on its own line.
    static func line(_ left: String, _ help: String) -> String {
        let column = 26
        let head = "  " + left
        if head.count < column { return head + String(repeating: " ", count: column - head.count) + help }
        return head + "\n" + String(repeating: " ", count: column) + help
    }

    /// Usage, summary, the positional arguments and the options (with `-h, --help` last).
    static func text(usage: String, summary: String, arguments: [(String, String)] = [], options: [any AnyCommandOption]) -> String {
        var lines = ["USAGE: " + usage, "", summary, ""]
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            lines += arguments.map { line($0.0, $0.1) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        lines += options.map(\.helpLine)
        lines.append(line("-h, --help", "Show help information."))
        return lines.joined(separator: "\n")
    }
}
