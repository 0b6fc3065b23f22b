/// The voice's commands (v1.2): the words are decided from the node's state
/// (`NodeCore.speak`), the speaker says them (`FeatureEffect.speak`), and the command is answered
/// `{"text", "seconds"}` once they are spoken.
public enum VoiceCommand: String, FeatureCommand {
    case say
    case speakTime = "speak/time"
    case speakNextAlarm = "speak/next_alarm"

    /// `say` takes plain text or an object: text that starts with a quote or a bracket is text.
    public var takesFreeText: Bool { self == .say }
}
