/// What the routines plan, as a button needs it (`routine_toggle`): whether one runs and which
/// would start next. A typed value made by the routines feature, so no other rule reads its plans.
public struct RoutinePlanSummary: Sendable, Equatable {
    /// A routine is running (or fading out).
    public var active: Bool
    /// The routine that would start next: the enabled one planned soonest, else the first enabled one.
    public var next: String?

    public init(active: Bool, next: String?) {
        self.active = active
        self.next = next
    }
}

extension RoutinesFeature {
    public var planSummary: RoutinePlanSummary {
        let planned = routines.filter(\.enabled).compactMap { routine in plans[routine.id].map { (routine.id, $0) } }
        let soonest = planned.min { $0.1 < $1.1 }?.0
        return RoutinePlanSummary(active: active != nil, next: soonest ?? routines.first { $0.enabled }?.id)
    }
}
