/// `alarms/pause`: holidays and travel without disabling anything.
extension AlarmsFeature {
    /// `{"until": "YYYY-MM-DD"}` or the plain date; today or later in the node's zone. An empty
    /// or null `until` (what Home Assistant's text entity sends when cleared) ends the pause: nil.
    func pauseDate(_ payload: CommandPayload, context: FeatureContext) throws(CommandError) -> CivilDate? {
        let text: String?
        switch payload {
        case .plain(let plain): text = plain
        case .json(.string(let string)): text = string
        case .json(.object(let object)):
            for key in object.keys where key != "until" && key != "request_id" {
                throw .invalidField(String(key.prefix(64)), "pause takes only \"until\"")
            }
            if object["until"]?.isNull == true || object["until"]?.stringValue?.trimmingWhitespace() == "" { return nil }
            text = object["until"]?.stringValue
        default: text = nil
        }
        guard let text, let date = CivilDate(iso: text.trimmingWhitespace()) else {
            throw .invalidField("until", "until must be a day YYYY-MM-DD, e.g. {\"until\": \"2026-01-05\"}")
        }
        let today = context.zone.local(at: context.now).date
        guard !(date < today) else { throw .invalidField("until", "until must be today (\(today)) or later") }
        return date
    }
}
