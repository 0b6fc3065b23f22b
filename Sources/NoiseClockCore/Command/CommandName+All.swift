/// Every command the node answers, as one list made from the two tables `CommandMessage.parse`
/// reads: the features' (`CommandTopic`) and the machine's own (`MachineCommand`). Nothing is
/// listed by hand here, so a case added to either table is in `allCases` (the request_id contract
/// test walks it over MQTT and HTTP).
extension CommandName: CaseIterable {
    public static let allCases: [CommandName] = CommandTopic.allCases.map(feature) + MachineCommand.allCases.map(machine)

    /// Why a command is not taken as `POST /api/<topic>`, or nil when it is. The web router hands
    /// every path below `/api/` to the same `CommandMessage.parse` as MQTT, so today every command
    /// is; a command kept off HTTP says why here, and the contract test skips it there.
    public var notOverHTTP: String? {
        switch self {
        case .feature, .machine: nil
        }
    }
}
