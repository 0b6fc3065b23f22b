import Testing
@testable import NoiseClockCore

/// The typed values the speech and button rules take instead of reading other features: the
/// next alarm's and the routines' summaries, and the phrases made from them on a fixed clock.
@Suite struct SpeechContextTests {
    static let saturday = "2026-11-21T07:04:00+01:00"

    static func context(_ locale: NodeLocale = .en, use24Hour: Bool = false) -> SpeechContext {
        SpeechContext(now: instant(saturday), zone: AlarmTestZones.berlin, locale: locale, use24Hour: use24Hour)
    }

    @Test func nextAlarmSummaryIsTheEarliestEnabledRing() {
        var h = ProgrammeHarness(now: Self.saturday)
        #expect(h.core.alarms.nextAlarmSummary(zone: h.core.settings.zone) == nil)
        h.ok("alarm/add", #"{"id": "work", "time": "06:45", "repeat": "weekdays", "label": "Work"}"#)
        h.ok("alarm/add", #"{"id": "off", "time": "07:10", "label": "Off", "enabled": false}"#)
        #expect(h.core.alarms.nextAlarmSummary(zone: h.core.settings.zone)
            == NextAlarmSummary(alarmID: "work", label: "Work", at: instant("2026-11-23T06:45:00+01:00")))
        h.ok("alarm/add", #"{"id": "late", "time": "07:30", "label": "Late"}"#)
        #expect(h.core.alarms.nextAlarmSummary(zone: h.core.settings.zone)?.alarmID == "late")
    }

    @Test func routinePlanSummaryNamesTheSoonestEnabledRoutine() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        #expect(h.core.routines.planSummary == RoutinePlanSummary(active: false, next: nil))
        h.ok("routine/add", #"{"id": "late", "start": "23:00"}"#)
        h.ok("routine/add", #"{"id": "early", "start": "22:00"}"#)
        h.ok("routine/add", #"{"id": "off", "start": "21:00", "enabled": false}"#)
        #expect(h.core.routines.planSummary == RoutinePlanSummary(active: false, next: "early"))
        h.ok("routine/start", "late")
        #expect(h.core.routines.planSummary.active)
    }

    @Test func speechCommandsSayTheTimeAndTheSummary() {
        let work = NextAlarmSummary(alarmID: "work", label: " Work ", at: instant("2026-11-23T06:45:00+01:00"))
        #expect(SpeechCommand.speakTime.words(Self.context(), nextAlarm: nil).text == "It's 7:04 AM, Saturday")
        #expect(SpeechCommand.speakTime.words(Self.context(.ko, use24Hour: true), nextAlarm: nil).text == "7시 4분, 토요일")
        #expect(SpeechCommand.speakNextAlarm.words(Self.context(), nextAlarm: work).text == "Next alarm: Monday at 6:45 AM, Work")
        #expect(SpeechCommand.speakNextAlarm.words(Self.context(), nextAlarm: nil).text == "No alarm is set")
        let today = NextAlarmSummary(alarmID: "late", label: "", at: instant("2026-11-21T19:30:00+01:00"))
        #expect(SpeechCommand.speakNextAlarm.words(Self.context(use24Hour: true), nextAlarm: today).text == "Next alarm: today at 19:30")
        let said = SpeechCommand.say(text: "Hi", volume: 30).words(Self.context(), nextAlarm: work)
        #expect(said.text == "Hi" && said.volume == 30)
    }

    @Test(arguments: [NodeLocale.en, .ko])
    func confirmationsAreWordsFromTypedFacts(locale: NodeLocale) {
        let context = Self.context(locale)
        let en = locale == .en
        let cases: [(ButtonConfirmation, String, String)] = [
            (.snoozed(until: instant("2026-11-21T07:13:00+01:00")), "Snoozed until 7:13 AM", "오전 7시 13분에 다시 울립니다"),
            (.snoozed(until: nil), "Snoozed", "다시 알림을 설정했습니다"),
            (.routine(label: "", started: false), "Routine stopped", "루틴을 멈췄습니다"),
            (.timer(seconds: 90), "Timer set for 1 minute 30 seconds", "1분 30초 타이머를 시작했습니다"),
            (.volume(40), "Volume 40", "볼륨 40"),
            (.light(on: false), "Light off", "조명을 껐습니다"),
        ]
        for (confirmation, english, korean) in cases {
            #expect(confirmation.text(context) == (en ? english : korean))
        }
    }

    @Test func confirmationFactsComeFromTheCoreBeforeAndAfter() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("routine/add", #"{"id": "bed", "label": "Bedtime ", "start": "22:00"}"#)
        h.ok("routine/start", "bed")
        let before = h.core
        h.ok("routine/stop")
        // Stopped: the label is the routine that ran (the core before), as the list has it.
        #expect(ButtonConfirmation(.feature(.routines(.stop)), before: before, after: h.core) == .routine(label: "Bedtime", started: false))
        let beforeTimer = h.core
        h.ok("timer/start", #"{"minutes": 20}"#)
        #expect(ButtonConfirmation(.feature(.timers(.start)), before: beforeTimer, after: h.core) == .timer(seconds: 1200))
        #expect(ButtonConfirmation(.feature(.noise(.setSound)), before: before, after: h.core) == .done)
        #expect(ButtonConfirmation(.feature(.voice(.speakTime)), before: before, after: h.core) == nil)
    }
}
