/// Parsing of the wake-curve and skipped-day fields (contract v1.1).
extension Alarm {
    /// `"none"` or a noise sound id: checked by the same catalog lookup `noise/sound/set` uses, so
    /// whatever the noise feature accepts (mixes included, once they are in the catalog) works here.
    static func parsePreAlarmSound(_ value: JSONValue, catalog: SoundCatalog) throws(CommandError) -> String {
        guard let id = value.stringValue else {
            throw .invalidField("pre_alarm_sound", "pre_alarm_sound must be a noise sound id or \"none\", got \(value.typeName)")
        }
        if id == "none" || catalog.hasNoise(id) { return id }
        // Restoring a state file happens before the catalog is known: any valid id is kept (a station's `radio:<id>` too).
        if catalog.noise.isEmpty, SoundID.isValid(id) { return id }
        throw CommandError(.unknownSound, field: "pre_alarm_sound", "no noise sound \"\(id.prefix(64))\" (see ~/sounds, or use \"none\")")
    }

    /// A list of `YYYY-MM-DD`, at most `maxSkipDates`; kept sorted without repeats.
    static func parseSkipDates(_ value: JSONValue) throws(CommandError) -> [CivilDate] {
        guard let items = value.arrayValue else {
            throw .invalidField("skip_dates", "skip_dates must be a list of days YYYY-MM-DD, got \(value.typeName)")
        }
        var dates = Set<CivilDate>()
        for item in items {
            guard let text = item.stringValue, let date = CivilDate(iso: text) else {
                throw .invalidField("skip_dates", "skip_dates items must be days YYYY-MM-DD")
            }
            dates.insert(date)
        }
        guard dates.count <= maxSkipDates else {
            throw .invalidField("skip_dates", "skip_dates holds at most \(maxSkipDates) days, got \(dates.count)")
        }
        return dates.sorted()
    }
}
