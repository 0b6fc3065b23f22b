/// The noise feature's commands.
public enum NoiseCommand: String, FeatureCommand {
    case set = "noise/set"
    case setSound = "noise/sound/set"
    case setVolume = "noise/volume/set"
    case setSleepTimer = "noise/sleep_timer/set"
    case preview = "noise/preview"

    /// A person's hand on the noise (everything but a preview): it takes over from a routine.
    public var overridesRoutine: Bool { self != .preview }
}
