/// Any command of the contract, by name: a feature's (`CommandTopic`), or one only the web app
/// takes (`WebCommand`). The two tables are the only place a command's name is a string;
/// everything else (a button's action, what a button says it did, the web server's dispatch)
/// holds this typed value.
public enum CommandName: Sendable, Hashable, RawRepresentable {
    case feature(CommandTopic)
    case web(WebCommand)

    /// The command for a topic suffix or API path (`alarm/snooze`, `say`, `restore`); nil for a name no table has.
    public init?(rawValue: String) {
        if let topic = CommandTopic(rawValue: rawValue) {
            self = .feature(topic)
        } else if let web = WebCommand(rawValue: rawValue) {
            self = .web(web)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .feature(let topic): topic.rawValue
        case .web(let command): command.rawValue
        }
    }
}
