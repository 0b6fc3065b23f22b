/// Any command of the contract, by name: a feature's (`CommandTopic`) or one the machine answers
/// itself (`MachineCommand`). The two tables are the only place a command's name is a string;
/// everything else (a button's action, what a button says it did) holds this typed value.
public enum CommandName: Sendable, Hashable, RawRepresentable {
    case feature(CommandTopic)
    case machine(MachineCommand)

    /// The command for a topic suffix (`alarm/snooze`, `say`); nil for a topic neither table has.
    public init?(rawValue: String) {
        if let machine = MachineCommand(rawValue: rawValue) {
            self = .machine(machine)
        } else if let topic = CommandTopic(rawValue: rawValue) {
            self = .feature(topic)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .feature(let topic): topic.rawValue
        case .machine(let command): command.rawValue
        }
    }
}
