/// What the node is doing, as far as a button's meaning depends on it.
public struct ButtonSituation: Sendable, Equatable {
    public var ringing: Bool
    public var noiseVolume: Int
    public var routineActive: Bool
    /// The routine that would start next (for `routine_toggle` with none active).
    public var nextRoutine: String?

    public init(ringing: Bool, noiseVolume: Int, routineActive: Bool, nextRoutine: String?) {
        self.ringing = ringing
        self.noiseVolume = noiseVolume
        self.routineActive = routineActive
        self.nextRoutine = nextRoutine
    }
}

extension ButtonAction {
    /// The command this action runs now (topic suffix and payload), through the same path as
    /// MQTT and HTTP; nil for `none`. A command the node does not have yet (speech, the lamp)
    /// is answered `unknown_command` on `~/response` like any other.
    public func command(in situation: ButtonSituation) -> (suffix: String, payload: String)? {
        switch self {
        case .snoozeOrSpeak: situation.ringing ? ("alarm/snooze", "") : ("speak/time", "")
        case .snooze: ("alarm/snooze", "")
        case .dismiss: ("alarm/dismiss", "")
        case .speakTime: ("speak/time", "")
        case .speakNextAlarm: ("speak/next_alarm", "")
        case .noiseToggle: ("noise/set", "TOGGLE")
        case .volumeUp: ("noise/volume/set", String(min(100, situation.noiseVolume + 10)))
        case .volumeDown: ("noise/volume/set", String(max(0, situation.noiseVolume - 10)))
        case .lightToggle: ("light/set", "TOGGLE")
        case .routineToggle:
            if situation.routineActive {
                ("routine/stop", "")
            } else if let next = situation.nextRoutine {
                ("routine/start", next)
            } else {
                ("routine/start", "")  // refused (no routine): the response says so
            }
        case .timer(let preset): ("timer/start", JSONValue.object(JSONObject([("preset", .string(preset))])).serialized)
        case .none: nil
        case .command(let suffix, let payload): (suffix, payload)
        }
    }
}
