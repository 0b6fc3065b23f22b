import Testing
@testable import NoiseClockCore

/// The spoken time and next alarm, in English and Korean, 12- and 24-hour.
@Suite struct SpeechPhrasesTests {
    /// 2026-11-24 is a Tuesday.
    static func at(_ hour: Int, _ minute: Int) -> LocalDateTime { LocalDateTime(year: 2026, month: 11, day: 24, hour: hour, minute: minute) }

    @Test(arguments: [
        (6, 45, NodeLocale.en, false, "It's 6:45 AM, Tuesday"),
        (6, 5, .en, false, "It's 6:05 AM, Tuesday"),
        (7, 0, .en, false, "It's 7 AM, Tuesday"),
        (0, 30, .en, false, "It's 12:30 AM, Tuesday"),
        (12, 0, .en, false, "It's 12 PM, Tuesday"),
        (18, 45, .en, true, "It's 18:45, Tuesday"),
        (6, 5, .en, true, "It's 6:05, Tuesday"),
        (6, 45, .ko, false, "오전 6시 45분, 화요일"),
        (7, 0, .ko, false, "오전 7시, 화요일"),
        (13, 5, .ko, false, "오후 1시 5분, 화요일"),
        (0, 10, .ko, false, "오전 12시 10분, 화요일"),
        (18, 45, .ko, true, "18시 45분, 화요일"),
    ])
    func theTime(hour: Int, minute: Int, locale: NodeLocale, use24Hour: Bool, expected: String) {
        #expect(SpeechPhrases.time(Self.at(hour, minute), locale: locale, use24Hour: use24Hour) == expected)
    }

    @Test func theNextAlarm() {
        let sunday = CivilDate(year: 2026, month: 11, day: 22)
        #expect(SpeechPhrases.nextAlarm(Self.at(6, 45), today: sunday, label: "Work", locale: .en, use24Hour: false)
            == "Next alarm: Tuesday at 6:45 AM, Work")
        #expect(SpeechPhrases.nextAlarm(Self.at(6, 45), today: sunday, label: " ", locale: .en, use24Hour: true) == "Next alarm: Tuesday at 6:45")
        #expect(SpeechPhrases.nextAlarm(Self.at(6, 45), today: sunday, label: "출근", locale: .ko, use24Hour: false)
            == "다음 알람: 화요일 오전 6시 45분, 출근")
        #expect(SpeechPhrases.nextAlarm(nil, today: sunday, label: nil, locale: .en, use24Hour: false) == "No alarm is set")
        #expect(SpeechPhrases.nextAlarm(nil, today: sunday, label: nil, locale: .ko, use24Hour: false) == "설정된 알람이 없습니다")
    }

    /// An alarm later today is "today", one the day after "tomorrow": its weekday would name next week's.
    @Test(arguments: [
        (24, NodeLocale.en, false, "Next alarm: today at 6:45 AM, Work"),
        (23, .en, true, "Next alarm: tomorrow at 6:45, Work"),
        (24, .ko, false, "다음 알람: 오늘 오전 6시 45분, Work"),
        (23, .ko, true, "다음 알람: 내일 6시 45분, Work"),
        (17, .en, false, "Next alarm: Tuesday at 6:45 AM, Work"),
    ])
    func theNextAlarmTodayOrTomorrow(today: Int, locale: NodeLocale, use24Hour: Bool, expected: String) {
        let today = CivilDate(year: 2026, month: 11, day: today)
        #expect(SpeechPhrases.nextAlarm(Self.at(6, 45), today: today, label: "Work", locale: locale, use24Hour: use24Hour) == expected)
    }

    @Test func aRingingSpeakTimeAlarm() {
        #expect(SpeechPhrases.ring(Self.at(6, 45), labels: ["Work"], locale: .en, use24Hour: false) == "It's 6:45 AM. Work")
        #expect(SpeechPhrases.ring(Self.at(7, 0), labels: ["Work", " Gym "], locale: .en, use24Hour: true) == "It's 7:00. Work, Gym")
        #expect(SpeechPhrases.ring(Self.at(6, 45), labels: [""], locale: .en, use24Hour: false) == "It's 6:45 AM")
        #expect(SpeechPhrases.ring(Self.at(6, 45), labels: ["출근"], locale: .ko, use24Hour: false) == "오전 6시 45분입니다. 출근")
        #expect(SpeechPhrases.ring(Self.at(7, 0), labels: ["출근"], locale: .ko, use24Hour: true) == "7시입니다. 출근")
    }
}
