/// The timers feature's commands.
public enum TimerCommand: String, FeatureCommand {
    case start = "timer/start"
    case cancel = "timer/cancel"
    case setPresets = "timer/presets/set"
}
