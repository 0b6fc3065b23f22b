/// The one place instants become text: ISO 8601 with the zone's offset, always `±HH:MM`
/// (`2026-11-21T07:05:00+01:00`; UTC is `+00:00`, never `Z`).
public enum ISO8601 {
    public static func string(_ instant: Instant, in zone: ZoneRules) -> String {
        let offset = zone.offset(at: instant.seconds)
        let local = LocalDateTime(localSeconds: instant.seconds + Int64(offset))
        return local.description + offsetText(offset)
    }

    /// `+05:45`, `-04:00`, `+00:00` (seconds of historical offsets are dropped).
    public static func offsetText(_ offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return sign + TimeText.pad(minutes / 60, 2) + ":" + TimeText.pad(minutes % 60, 2)
    }

    /// JSON for an optional instant: its ISO text, or null.
    public static func json(_ instant: Instant?, in zone: ZoneRules) -> JSONValue {
        instant.map { .string(string($0, in: zone)) } ?? .null
    }
}
