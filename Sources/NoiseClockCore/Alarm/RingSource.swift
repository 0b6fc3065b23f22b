/// What a ring is for: an alarm, or a timer that finished (`source` on `~/alarm` and AlarmEvent).
public enum RingSource: String, Sendable, Hashable {
    case alarm
    case timer
}
