/// A change of `settings.json` (the web app's layer of the configuration), handed to the node's
/// loop as `NodeInput.settings` and carried out by its effect performer (`NodeEffect.editSettings`):
/// the loop is the file's one writer, so two changes never interleave and the web server's thread
/// never waits for the disk.
public enum SettingsEdit: Sendable, Equatable {
    /// `POST /api/settings`, `settings/reset`, `settings/confirm` or `setup/done` for the waiting
    /// connection `id`, with its body and `request_id`, which came through the listening address
    /// `via` (`host:port`); answered once the file is written.
    case request(id: UInt64, command: WebCommand, body: [UInt8], requestID: JSONValue?, via: String)
    /// The broker trial of this generation connected (its watching thread saw it): the loop keeps
    /// its keys in the file, then its status says `connected` (`BrokerSwitch.settle`).
    case brokerConnected(generation: Int)
}
