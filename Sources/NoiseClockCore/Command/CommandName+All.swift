/// Every command the node answers, as one list made from the two tables: the features'
/// (`CommandTopic`) and the web app's (`WebCommand`, last: `restore` and `restart` end the list).
/// Nothing is listed by hand here, so a case added to any table is in `allCases` (the request_id
/// contract test walks it over MQTT and HTTP).
extension CommandName: CaseIterable {
    public static let allCases: [CommandName] = CommandTopic.allCases.map(feature) + WebCommand.allCases.map(web)

    /// Why a command is not taken as `POST /api/<topic>`, or nil when it is. The web server looks
    /// every path below `/api/` up in this table, so today every command is; a command kept off
    /// HTTP says why here, and the web server and the contract test skip it there.
    public var notOverHTTP: String? {
        switch self {
        case .feature, .web: nil
        }
    }

    /// Why a command has no MQTT topic, or nil when it has one (the node subscribes to it).
    public var notOverMQTT: String? {
        switch self {
        case .feature: nil
        case .web(let command): command.notOverMQTT
        }
    }
}
