/// What the node says, as a native speaker would say it: the time in the clock's 12/24-hour
/// style and the day, and the next alarm. Plain text for eSpeak NG (it reads "6:45 AM" and
/// "오전 6시 45분" as people do).
public enum SpeechPhrases {
    /// "It's 6:45 AM, Tuesday" / "오전 6시 45분, 화요일"; on the hour "It's 7 AM, Tuesday" /
    /// "오전 7시, 화요일"; 24-hour: "It's 18:45, Tuesday" / "18시 45분, 화요일".
    public static func time(_ local: LocalDateTime, locale: NodeLocale, use24Hour: Bool) -> String {
        let day = CalendarNames.longWeekday(local.weekday, locale)
        switch locale {
        case .en: return "It's \(clock(local, locale: .en, use24Hour: use24Hour)), \(day)"
        case .ko: return "\(clock(local, locale: .ko, use24Hour: use24Hour)), \(day)"
        }
    }

    /// "Next alarm: Tuesday at 6:45 AM, Work" / "다음 알람: 화요일 오전 6시 45분, Work"; later
    /// `today`: "Next alarm: today at 6:45 AM" / "다음 알람: 오늘 오전 6시 45분", the day after: "tomorrow" /
    /// "내일" (a weekday would say next week's). nil alarm: "No alarm is set" / "설정된 알람이 없습니다".
    /// The label is left out when empty.
    public static func nextAlarm(_ local: LocalDateTime?, today: CivilDate, label: String?, locale: NodeLocale, use24Hour: Bool) -> String {
        guard let local else {
            return locale == .en ? "No alarm is set" : "설정된 알람이 없습니다"
        }
        let day = switch local.date {
        case today: locale == .en ? "today" : "오늘"
        case today.adding(days: 1): locale == .en ? "tomorrow" : "내일"
        default: CalendarNames.longWeekday(local.weekday, locale)
        }
        let time = clock(local, locale: locale, use24Hour: use24Hour)
        let suffix = label.map(\.trimmedForSpeech).flatMap { $0.isEmpty ? nil : ", \($0)" } ?? ""
        switch locale {
        case .en: return "Next alarm: \(day) at \(time)\(suffix)"
        case .ko: return "다음 알람: \(day) \(time)\(suffix)"
        }
    }

    /// What a ringing `speak_time` alarm says: "It's 6:45 AM. Work" / "오전 6시 45분입니다. Work"
    /// (the labels of the ring's speaking alarms, joined; left out when empty).
    public static func ring(_ local: LocalDateTime, labels: [String], locale: NodeLocale, use24Hour: Bool) -> String {
        let time = clock(local, locale: locale, use24Hour: use24Hour)
        let said = labels.map(\.trimmedForSpeech).filter { !$0.isEmpty }
        let suffix = said.isEmpty ? "" : ". " + said.joined(separator: ", ")
        switch locale {
        case .en: return "It's \(time)\(suffix)"
        case .ko: return "\(time)입니다\(suffix)"
        }
    }

    /// The time of day alone: "6:45 AM", "7 AM", "18:45"; "오전 6시 45분", "오전 7시", "18시 45분".
    public static func clock(_ local: LocalDateTime, locale: NodeLocale, use24Hour: Bool) -> String {
        let minute = local.minute
        switch locale {
        case .en:
            if use24Hour { return "\(local.hour):\(minute < 10 ? "0" : "")\(minute)" }
            let hour = (local.hour + 11) % 12 + 1
            let period = CalendarNames.dayPeriod(hour: local.hour, .en)
            return minute == 0 ? "\(hour) \(period)" : "\(hour):\(minute < 10 ? "0" : "")\(minute) \(period)"
        case .ko:
            let hour = use24Hour ? "\(local.hour)시" : "\(CalendarNames.dayPeriod(hour: local.hour, .ko)) \((local.hour + 11) % 12 + 1)시"
            return minute == 0 ? hour : "\(hour) \(minute)분"
        }
    }
}

extension String {
    /// Whitespace trimmed: a label said as written, without stray spaces.
    fileprivate var trimmedForSpeech: String { trimmingWhitespace() }
}
