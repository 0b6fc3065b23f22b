/// What a button's gesture does (mqtt-api.md, v1.2 "Buttons": Actions).
public enum ButtonAction: Sendable, Equatable, CustomStringConvertible {
    /// Ringing: snooze; otherwise speak the time.
    case snoozeOrSpeak
    case snooze
    case dismiss
    case speakTime
    case speakNextAlarm
    case noiseToggle
    /// Noise, or the ringing alarm, by 10.
    case volumeUp
    case volumeDown
    case lightToggle
    /// Stop the active routine, or start the next one now.
    case routineToggle
    /// Start the timer preset with this id.
    case timer(String)
    case none
    /// Any command: its topic suffix (`noise/set`) and payload, answered on `~/response`.
    case command(String, payload: String)

    private static let named: [(String, ButtonAction)] = [
        ("snooze_or_speak", .snoozeOrSpeak), ("snooze", .snooze), ("dismiss", .dismiss),
        ("speak_time", .speakTime), ("speak_next_alarm", .speakNextAlarm), ("noise_toggle", .noiseToggle),
        ("volume_up", .volumeUp), ("volume_down", .volumeDown), ("light_toggle", .lightToggle),
        ("routine_toggle", .routineToggle), ("none", .none),
    ]

    /// An action's name as the configuration writes it (`snooze`, `timer:nap`); nil if unknown.
    public init?(_ text: String) {
        if let action = ButtonAction.named.first(where: { $0.0 == text })?.1 {
            self = action
        } else if text.hasPrefix("timer:"), !text.dropFirst(6).isEmpty {
            self = .timer(String(text.dropFirst(6)))
        } else {
            return nil
        }
    }

    /// As `~/buttons` and `~/button/event` show it: the name, `timer:<id>`, or `command:<topic>`.
    public var description: String {
        switch self {
        case .timer(let id): "timer:\(id)"
        case .command(let topic, _): "command:\(topic)"
        default: ButtonAction.named.first { $0.1 == self }?.0 ?? "none"
        }
    }

    public static let defaultPress = ButtonAction.snoozeOrSpeak
    public static let defaultDouble = ButtonAction.noiseToggle
    public static let defaultHold = ButtonAction.dismiss
}
