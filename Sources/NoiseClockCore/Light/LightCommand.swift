/// The light feature's commands.
public enum LightCommand: String, FeatureCommand {
    case set = "light/set"
}
