/// The alarms feature's commands.
public enum AlarmCommand: String, FeatureCommand {
    case add = "alarm/add"
    case update = "alarm/update"
    case delete = "alarm/delete"
    case enable = "alarm/enable"
    case disable = "alarm/disable"
    case duplicate = "alarm/duplicate"
    case skip = "alarm/skip"
    case test = "alarm/test"
    case snooze = "alarm/snooze"
    case dismiss = "alarm/dismiss"
    case setAll = "alarms/set"
    case pause = "alarms/pause"
    case resume = "alarms/resume"
}
