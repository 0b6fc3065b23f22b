/// The routines feature's commands.
public enum RoutineCommand: String, FeatureCommand {
    case add = "routine/add"
    case update = "routine/update"
    case delete = "routine/delete"
    case enable = "routine/enable"
    case disable = "routine/disable"
    case setAll = "routines/set"
    case start = "routine/start"
    case stop = "routine/stop"
}
