/// The mixes feature's commands.
public enum MixCommand: String, FeatureCommand {
    case set = "mix/set"
    case delete = "mix/delete"
}
