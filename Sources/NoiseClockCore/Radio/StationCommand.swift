/// The stations feature's commands. `station/test` needs the network: the feature names the
/// address (`FeatureEffect.probeStation`), and the machine answers when its probe comes back.
public enum StationCommand: String, FeatureCommand {
    case add = "station/add"
    case update = "station/update"
    case delete = "station/delete"
    case test = "station/test"
}
