/// The buttons' command: `buttons/learn` reports every key of the local input devices for 30 s
/// (`FeatureEffect.learnButtons`), answered at once with how long.
public enum ButtonsCommand: String, FeatureCommand {
    case learn = "buttons/learn"
}
