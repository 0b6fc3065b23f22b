/// What every spoken phrase depends on besides its own facts: the instant, the node's zone and
/// locale, and the clock's 12/24-hour style. Made by the machine from the core; the phrase rules
/// (speech commands, a ring's announcement, a button's confirmation) take only this and typed facts.
public struct SpeechContext: Sendable, Equatable {
    public var now: Instant
    public var zone: ZoneRules
    public var locale: NodeLocale
    public var use24Hour: Bool

    public init(now: Instant, zone: ZoneRules, locale: NodeLocale, use24Hour: Bool) {
        self.now = now
        self.zone = zone
        self.locale = locale
        self.use24Hour = use24Hour
    }

    /// The time of day as said: "6:45 AM", "오전 6시 45분".
    func clock(_ instant: Instant) -> String {
        SpeechPhrases.clock(zone.local(at: instant), locale: locale, use24Hour: use24Hour)
    }
}

extension SpeechCommand {
    /// The words and the volume (nil: the default) for this command. `nextAlarm` is only read by
    /// `speak/next_alarm`.
    func words(_ context: SpeechContext, nextAlarm: NextAlarmSummary?) -> (text: String, volume: Int?) {
        switch self {
        case .say(let text, let volume):
            return (text, volume)
        case .speakTime:
            return (SpeechPhrases.time(context.zone.local(at: context.now), locale: context.locale, use24Hour: context.use24Hour), nil)
        case .speakNextAlarm:
            let text = SpeechPhrases.nextAlarm(
                nextAlarm.map { context.zone.local(at: $0.at) }, today: context.zone.local(at: context.now).date, label: nextAlarm?.label,
                locale: context.locale, use24Hour: context.use24Hour)
            return (text, nil)
        }
    }
}
