/// `~/timer/event`: `{"event", "id", "label", "at", "missed"}`, not retained, QoS 1.
public enum TimerEvent: String, Sendable, CaseIterable {
    case started
    case finished
    case cancelled

    public func publication(_ timer: CountdownTimer, at: Instant, missed: Bool = false, zone: ZoneRules) -> Publication {
        .event("timer/event", .object(JSONObject([
            ("event", .string(rawValue)),
            ("id", .string(timer.id)),
            ("label", .string(timer.label)),
            ("at", .string(ISO8601.string(at, in: zone))),
            ("missed", .bool(missed)),
        ])))
    }
}
