/// `~/routine/event`: `{"event", "id", "label", "at"}`, not retained, QoS 1.
public enum RoutineEvent: String, Sendable, CaseIterable {
    case started
    case ended
    case overridden
    case resumed

    public func publication(_ routine: Routine, at: Instant, zone: ZoneRules) -> Publication {
        .event("routine/event", .object(JSONObject([
            ("event", .string(rawValue)),
            ("id", .string(routine.id)),
            ("label", .string(routine.label)),
            ("at", .string(ISO8601.string(at, in: zone))),
        ])))
    }
}
