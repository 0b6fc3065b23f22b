/// The stations feature's commands (`station/test` needs the network: the stream player's, not
/// the core's; it is not here yet, see docs/sounds.md "Radio").
public enum StationCommand: String, FeatureCommand {
    case add = "station/add"
    case update = "station/update"
    case delete = "station/delete"
}
