/// The style feature's commands.
public enum StyleCommand: String, FeatureCommand {
    case set = "style/set"
    case preset = "style/preset"
}
