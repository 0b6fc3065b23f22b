import Testing
@testable import NoiseClockCore

/// Pauses, skipped days and skip_next: what passes silently, and what `next_trigger` and
/// AlarmState `next` say.
@Suite struct AlarmPauseSkipTests {
    @Test func skipDatesPassSilentlyAndNextTriggerLooksPastThem() {
        // Friday 2026-11-20, 06:00 Berlin.
        var h = AlarmHarness(now: "2026-11-20T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "skip_dates": ["2026-11-21", "2026-11-20", "2026-11-19"]}"#)
        // The past day is dropped at once, the rest sorted.
        #expect(h.alarm(id)?["skip_dates"] == ["2026-11-20", "2026-11-21"])
        #expect(h.nextTrigger(id) == "2026-11-22T07:00:00+01:00")
        #expect(h.state["next"]?["at"] == "2026-11-22T07:00:00+01:00")
        _ = h.takeEvents()
        h.run(until: "2026-11-22T07:00:30+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        // Once their day has passed, skipped days leave the list.
        #expect(h.alarm(id)?["skip_dates"] == [])
    }

    @Test func skipNextTakesTheFirstDayThatWouldRing() {
        var h = AlarmHarness(now: "2026-11-20T08:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "skip_dates": ["2026-11-21"], "skip_next": true}"#)
        #expect(h.nextTrigger(id) == "2026-11-23T07:00:00+01:00")
        _ = h.takeEvents()
        h.run(until: "2026-11-23T07:00:30+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        #expect(h.alarm(id)?["skip_next"] == false)
    }

    @Test func pauseSilencesEveryAlarmUntilItsDayThenEndsByItself() throws {
        var h = AlarmHarness(now: "2026-12-20T12:00:00+01:00")
        let a = h.add(#"{"time": "07:00", "repeat": "weekdays", "pre_alarm_minutes": 10}"#)
        let b = h.add(#"{"time": "09:30", "repeat": "daily"}"#)
        let state = try h.send(.pause, "2027-01-04").get()
        #expect(state["paused_until"] == "2027-01-04")
        #expect(h.nextTrigger(a) == "2027-01-04T07:00:00+01:00")
        #expect(h.nextTrigger(b) == "2027-01-04T09:30:00+01:00")
        #expect(h.state["next"]?["id"]?.stringValue == a)
        _ = h.takeEvents()
        h.run(until: "2027-01-04T06:55:00+01:00")
        // Nothing rang, no pre-alarm went out, and the pause ended at the start of its day.
        #expect(h.takeEvents() == ["pre_alarm \(a)"])
        #expect(h.state["paused_until"] == .null)
        h.run(until: "2027-01-04T07:00:10+01:00")
        #expect(h.takeEvents() == ["fired \(a)"])
    }

    @Test func resumeEndsThePause() throws {
        var h = AlarmHarness(now: "2026-12-20T12:00:00+01:00")
        let a = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        _ = try h.send(.pause, #"{"until": "2026-12-28"}"#).get()
        #expect(h.nextTrigger(a) == "2026-12-28T07:00:00+01:00")
        let state = try h.send(.resume).get()
        #expect(state["paused_until"] == .null)
        #expect(h.nextTrigger(a) == "2026-12-21T07:00:00+01:00")
    }

    @Test func pauseRefusesPastAndMalformedDays() {
        var h = AlarmHarness(now: "2026-12-20T12:00:00+01:00")
        #expect(h.send(.pause, "2026-12-19").failureCode == .invalidField)
        #expect(h.send(.pause, #"{"until": "tomorrow"}"#).failureCode == .invalidField)
        #expect(h.send(.pause, "").failureCode == .invalidField)
        #expect(h.send(.pause, "2026-12-20").isSuccess, "today is allowed")
    }

    @Test func pauseSurvivesARestart() throws {
        var h = AlarmHarness(now: "2026-12-20T12:00:00+01:00")
        _ = h.add(#"{"time": "07:00", "repeat": "daily", "skip_dates": ["2026-12-25"]}"#)
        _ = try h.send(.pause, "2027-01-02").get()
        let restored = AlarmsFeature(restoring: h.feature.persistent)
        #expect(restored == h.feature)
    }

    @Test func skipDatesAreChecked() {
        var h = AlarmHarness(now: "2026-12-20T12:00:00+01:00")
        #expect(h.send(.add, #"{"time": "07:00", "skip_dates": "2026-12-25"}"#).failureCode == .invalidField)
        #expect(h.send(.add, #"{"time": "07:00", "skip_dates": ["25.12.2026"]}"#).failureCode == .invalidField)
        let many = (1...51).map { "\"2027-0\(1 + $0 / 28)-\($0 % 28 + 1 < 10 ? "0" : "")\($0 % 28 + 1)\"" }.joined(separator: ",")
        #expect(h.send(.add, #"{"time": "07:00", "skip_dates": [\#(many)]}"#).failureCode == .invalidField)
    }

    @Test func wakeCurveFieldsAreChecked() {
        var h = AlarmHarness(now: "2026-12-20T12:00:00+01:00")
        #expect(h.send(.add, #"{"time": "07:00", "ramp_seconds": 3600, "start_volume": 20}"#).isSuccess)
        #expect(h.send(.add, #"{"time": "07:00", "start_volume": 101}"#).failureCode == .invalidField)
        #expect(h.send(.add, #"{"time": "07:00", "pre_alarm_sound": "Birds!", "pre_alarm_minutes": 10}"#).failureCode == .unknownSound)
        #expect(h.send(.add, #"{"time": "07:00", "pre_alarm_sound": "brown"}"#).failureCode == .invalidField, "needs pre_alarm_minutes")
    }
}

extension Result where Success == JSONValue, Failure == CommandError {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
