// Temporary stand-in until the zone-aware formatter lands (branch timealarms).
public enum TimePayload {
    public static func make(now: Instant, zone: ZoneRules, locale: NodeLocale, use24Hour: Bool, showSeconds: Bool, showAmPm: Bool) -> JSONValue {
        ["epoch": .int(now.seconds), "timezone": .string(zone.identifier)]
    }
}
