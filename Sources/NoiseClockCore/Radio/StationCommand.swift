/// The stations feature's commands. `station/test` needs the network: it is a `MachineCommand`,
/// answered when its probe comes back.
public enum StationCommand: String, FeatureCommand {
    case add = "station/add"
    case update = "station/update"
    case delete = "station/delete"
}
