/// The contract's AlarmEvent payload and the publications that carry it.
public enum AlarmEvent: String, Sendable, CaseIterable {
    case preAlarm = "pre_alarm"
    case fired
    case snoozed
    case dismissed
    case timedOut = "timed_out"
    case missed
    /// The ring's sound reached the device (failsafe; adds `fallback`).
    case sounding
    /// The ring cannot be heard (failsafe; adds `reason` and `error`).
    case failed
    /// The bed shaker confirmed it is on (`vibrate`).
    case shaking

    public func payload(
        alarm: Alarm, scheduled: Instant, at: Instant, snoozeCount: Int, test: Bool, zone: ZoneRules,
        source: RingSource = .alarm
    ) -> JSONValue {
        .object(JSONObject([
            ("event", .string(rawValue)),
            ("id", .string(alarm.id)),
            ("label", .string(alarm.label)),
            ("sound", .string(alarm.sound)),
            ("volume", .int(Int64(alarm.volume))),
            ("vibrate", .bool(alarm.vibrate)),
            ("scheduled", .string(ISO8601.string(scheduled, in: zone))),
            ("at", .string(ISO8601.string(at, in: zone))),
            ("snooze_count", .int(Int64(snoozeCount))),
            ("test", .bool(test)),
            ("source", .string(source.rawValue)),
        ]))
    }

    /// `~/alarm/event` always; a fire also goes to `~/alarm/fired`.
    public func publications(_ payload: JSONValue) -> [Publication] {
        var out = [Publication.event("alarm/event", payload)]
        if self == .fired { out.append(.event("alarm/fired", payload)) }
        return out
    }
}
