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

extension ButtonSituation {
    /// The situation from typed values of the features it depends on.
    public init(ringing: Bool, noiseVolume: Int, routines: RoutinePlanSummary) {
        self.init(ringing: ringing, noiseVolume: noiseVolume, routineActive: routines.active, nextRoutine: routines.next)
    }
}

extension ButtonAction {
    /// The command this action runs now (typed, and its payload), through the same path as MQTT
    /// and HTTP; nil for `none`. A `command:` action's topic was checked against the features'
    /// topic table when the configuration was read; one that is not in it runs nothing.
    public func command(in situation: ButtonSituation) -> (command: CommandName, payload: String)? {
        switch self {
        case .snoozeOrSpeak: situation.ringing ? (.feature(.alarms(.snooze)), "") : (.feature(.voice(.speakTime)), "")
        case .snooze: (.feature(.alarms(.snooze)), "")
        case .dismiss: (.feature(.alarms(.dismiss)), "")
        case .speakTime: (.feature(.voice(.speakTime)), "")
        case .speakNextAlarm: (.feature(.voice(.speakNextAlarm)), "")
        case .noiseToggle: (.feature(.noise(.set)), "TOGGLE")
        case .volumeUp: (.feature(.noise(.setVolume)), String(min(100, situation.noiseVolume + 10)))
        case .volumeDown: (.feature(.noise(.setVolume)), String(max(0, situation.noiseVolume - 10)))
        case .lightToggle: (.feature(.light(.set)), "TOGGLE")
        case .routineToggle:
            if situation.routineActive {
                (.feature(.routines(.stop)), "")
            } else if let next = situation.nextRoutine {
                (.feature(.routines(.start)), next)
            } else {
                (.feature(.routines(.start)), "")  // refused (no routine): the response says so
            }
        case .timer(let preset): (.feature(.timers(.start)), JSONValue.object(JSONObject([("preset", .string(preset))])).serialized)
        case .none: nil
        case .command(let topic, let payload): CommandTopic(rawValue: topic).map { (.feature($0), payload) }
        }
    }
}
