/// The commands only the web app takes, as `POST /api/<name>` (http-api.md v1.3, v1.4): rows of
/// the one command table (`CommandName.web`) with no MQTT topic, each for the reason
/// `notOverMQTT` gives. The web server looks them up by this table and hands them to their
/// adapter by a `switch` on the case (`InboxWebBackend.take`); every answer echoes the body's
/// `request_id`, read once by the server (`WebCommandRequest`).
public enum WebCommand: String, Sendable, CaseIterable {
    case settings
    case settingsReset = "settings/reset"
    case settingsConfirm = "settings/confirm"
    case setupDone = "setup/done"
    case audioTest = "audio/test"
    case mqttTest = "mqtt/test"
    /// Replaces every state file: next to last, so the request_id contract test sends it late.
    case restore
    /// Stops the node and starts it again: the table's last command.
    case restart

    /// Why the command is taken behind the web token only, never from a topic anyone on the broker may publish to.
    public var notOverMQTT: String {
        switch self {
        case .settings, .settingsReset, .setupDone: "changes settings.json, the configuration's web layer (the web token guards it)"
        case .settingsConfirm: "confirms a new web address by coming through it: only an HTTP request has an address"
        case .audioTest: "opens a sound device the caller names (the web token guards it)"
        case .mqttTest: "connects to a broker the caller names, with the node's password for its own broker"
        case .restore: "replaces every state file and the settings with a backup downloaded from the web app"
        case .restart: "stops the node, and with it the MQTT session the command would come through"
        }
    }

    /// Answered before its work begins (`202 Accepted`): the node restarts after answering.
    public var answeredBeforeItsWork: Bool { self == .restart }
}
