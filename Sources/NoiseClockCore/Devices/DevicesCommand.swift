/// The bridged devices' command (v1.3, the settings page's "Test"): `devices/test` asks the lamp
/// or the shaker's plug for its state (`FeatureEffect.testDevice`), answered with its word.
public enum DevicesCommand: String, FeatureCommand {
    case test = "devices/test"
}
