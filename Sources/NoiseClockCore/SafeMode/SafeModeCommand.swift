/// Safe mode's command (v1.4): `safe_mode/exit` is answered `{"restarting"}`, then the crash
/// count is cleared and the node starts again, normally (`FeatureEffect.exitSafeMode`).
public enum SafeModeCommand: String, FeatureCommand {
    case exit = "safe_mode/exit"
}
