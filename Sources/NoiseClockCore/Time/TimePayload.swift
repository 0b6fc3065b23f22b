/// The `~/time` message: `{"iso", "epoch", "display", "ampm", "date", "weekday", "timezone"}`.
public enum TimePayload {
    public static func make(
        now: Instant, zone: ZoneRules, locale: NodeLocale,
        use24Hour: Bool, showSeconds: Bool, showAmPm: Bool
    ) -> JSONValue {
        let local = zone.local(at: now)
        return .object(JSONObject([
            ("iso", .string(ISO8601.string(now, in: zone))),
            ("epoch", .int(now.seconds)),
            ("display", .string(display(local, use24Hour: use24Hour, showSeconds: showSeconds))),
            ("ampm", use24Hour || !showAmPm ? .null : .string(CalendarNames.dayPeriod(hour: local.hour, locale))),
            ("date", .string(date(local, locale))),
            ("weekday", .string(local.weekday.code)),
            ("timezone", .string(zone.identifier)),
        ]))
    }

    /// `07:05` (24-hour) or `7:05` (12-hour, `12:xx` at noon and midnight), `:09` appended with seconds.
    public static func display(_ local: LocalDateTime, use24Hour: Bool, showSeconds: Bool) -> String {
        let hourText = use24Hour ? TimeText.pad(local.hour, 2) : String(local.hour % 12 == 0 ? 12 : local.hour % 12)
        var text = hourText + ":" + TimeText.pad(local.minute, 2)
        if showSeconds { text += ":" + TimeText.pad(local.second, 2) }
        return text
    }

    /// `d MMMM EEE`: `21 November Sat`, `21 11월 토`.
    public static func date(_ local: LocalDateTime, _ locale: NodeLocale) -> String {
        "\(local.day) \(CalendarNames.month(local.month, locale)) \(CalendarNames.shortWeekday(local.weekday, locale))"
    }
}
