import Testing
@testable import NoiseClockCore

/// The ring cycle with an injected clock. Berlin; 2026-11-21 is a Saturday.
@Suite struct AlarmRingCycleTests {
    @Test func firesAtTheMinuteThenSnoozesRefiresAndIsDismissed() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "label": "Wake", "volume": 70, "vibrate": true}"#)
        h.outbox.removeAll()
        #expect(h.feature.nextDeadline(context: h.context) == instant("2026-11-21T07:00:00+01:00"))
        h.advance(to: "2026-11-21T06:59:59.999+01:00")
        #expect(h.takeEvents() == [])

        h.advance(to: "2026-11-21T07:00:00.040+01:00")
        #expect(h.eventBodies("alarm/fired").count == 1)
        let fired = try #require(h.eventBodies().first)
        #expect(fired.serialized == #"{"event":"fired","id":"\#(id)","label":"Wake","sound":"classic","volume":70,"vibrate":true,"#
            + #""scheduled":"2026-11-21T07:00:00+01:00","at":"2026-11-21T07:00:00+01:00","snooze_count":0,"test":false,"source":"alarm"}"#)
        #expect(h.takeEvents() == ["fired \(id)"])
        #expect(h.state["state"] == "ringing")
        #expect(h.state["alarm_id"] == .string(id))
        #expect(h.state["since"] == "2026-11-21T07:00:00+01:00")
        #expect(h.feature.ringing?.alarm.id == id)
        #expect(h.nextTrigger(id) == "2026-11-22T07:00:00+01:00")
        #expect(h.state["next"]?["at"] == "2026-11-22T07:00:00+01:00")

        h.now = instant("2026-11-21T07:01:00+01:00")
        #expect(try h.send(.snooze, #"{"minutes": 5}"#).get()["snooze_until"] == "2026-11-21T07:06:00+01:00")
        #expect(h.eventBodies().first?["snooze_count"] == 1)
        #expect(h.takeEvents() == ["snoozed \(id)"])
        #expect(h.state["state"] == "snoozed")
        #expect(h.feature.ringing == nil)
        #expect(h.feature.nextDeadline(context: h.context) == instant("2026-11-21T07:06:00+01:00"))

        h.run(until: "2026-11-21T07:06:00.010+01:00")
        #expect(h.eventBodies("alarm/fired").first?["snooze_count"] == 1)
        #expect(h.eventBodies("alarm/fired").first?["scheduled"] == "2026-11-21T07:00:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        #expect(h.state["state"] == "ringing")

        h.now = instant("2026-11-21T07:07:00+01:00")
        _ = try h.send(.dismiss).get()
        #expect(h.takeEvents() == ["dismissed \(id)"])
        #expect(h.state["state"] == "idle")
        #expect(h.state["alarm_id"] == .null)
        h.run(until: "2026-11-21T23:00:00+01:00")
        #expect(h.takeEvents() == [])
    }

    @Test func ringingTimesOutRingMinutesAfterEachStart() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "ring_minutes": 3, "snooze_minutes": 5}"#)
        h.run(until: "2026-11-21T07:02:59+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        h.run(until: "2026-11-21T07:03:00+01:00")
        #expect(h.takeEvents() == ["timed_out \(id)"])
        #expect(h.state["state"] == "idle")

        // After a snooze, the three minutes count from the new start.
        h.run(until: "2026-11-22T07:01:00+01:00")
        h.send(.snooze)
        h.run(until: "2026-11-22T07:06:00+01:00")
        h.run(until: "2026-11-22T07:08:59+01:00")
        #expect(h.takeEvents() == ["fired \(id)", "snoozed \(id)", "fired \(id)"])
        h.run(until: "2026-11-22T07:09:00+01:00")
        #expect(h.takeEvents() == ["timed_out \(id)"])
    }

    @Test func snoozeLengthsAndRefusals() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        #expect(h.send(.snooze) == .failure(CommandError(.notFound, "no alarm is ringing or snoozed")))
        #expect(h.send(.dismiss) == .failure(CommandError(.notFound, "no alarm is ringing or snoozed")))
        _ = h.add(#"{"time": "07:00", "repeat": "daily", "snooze_minutes": 7}"#)
        h.run(until: "2026-11-21T07:00:00+01:00")
        for bad in ["6", "0", "abc", #"{"minutes": 30}"#, #"{"minutes": "x"}"#, "[5]"] {
            let before = h.feature
            #expect(throws: CommandError.self) { try h.send(.snooze, bad).get() }
            #expect(h.feature == before)
        }
        #expect(h.send(.snooze, #"{"minute": 5}"#).failureField == "minute")
        #expect(h.send(.snooze, "6").failureField == "minutes")
        #expect(try h.send(.snooze).get()["snooze_until"] == "2026-11-21T07:07:00+01:00")
        #expect(try h.send(.snooze, "15").get()["snooze_until"] == "2026-11-21T07:15:00+01:00")
        #expect(try h.send(.snooze, "10").get()["snooze_until"] == "2026-11-21T07:10:00+01:00")
        // Snoozing again while snoozed moves the end but is still the first snooze.
        #expect(h.eventBodies().map { $0["snooze_count"] } == [0, 1, 1, 1]) // fired, then three snoozes
    }

    @Test func preAlarmGoesOutOnceBeforeTheFire() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "pre_alarm_minutes": 15}"#)
        #expect(h.feature.nextDeadline(context: h.context) == instant("2026-11-21T06:45:00+01:00"))
        h.advance(to: "2026-11-21T06:45:00+01:00")
        h.advance(to: "2026-11-21T06:45:00+01:00")
        h.advance(to: "2026-11-21T06:50:00+01:00")
        #expect(h.eventBodies().first?["scheduled"] == "2026-11-21T07:00:00+01:00")
        #expect(h.takeEvents() == ["pre_alarm \(id)"])
        #expect(h.feature.nextDeadline(context: h.context) == instant("2026-11-21T07:00:00+01:00"))
        h.run(until: "2026-11-22T06:50:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)", "timed_out \(id)", "pre_alarm \(id)"])
    }

    @Test func twoAlarmsInTheSameMinuteRingOnceAndAreBothReported() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let first = h.add(#"{"time": "07:00", "repeat": "daily", "label": "First"}"#)
        let second = h.add(#"{"time": "07:00", "repeat": "daily", "label": "Second"}"#)
        h.outbox.removeAll()
        h.run(until: "2026-11-21T07:00:00+01:00")
        #expect(h.takeEvents() == ["fired \(first)", "fired \(second)"])
        #expect(h.state["alarm_id"] == .string(first))
        #expect(h.state["label"] == "First")
        h.send(.dismiss)
        #expect(h.takeEvents() == ["dismissed \(first)", "dismissed \(second)"])
    }

    @Test func testFireIsMarkedAndLeavesTheScheduleAlone() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        let planned = h.nextTrigger(id)
        let persistentBefore = h.feature.persistent.map { $0["alarms"] }
        h.outbox.removeAll()
        _ = try h.send(.test, id).get()
        #expect(h.eventBodies("alarm/fired").first?["test"] == true)
        #expect(h.takeEvents() == ["fired \(id)"])
        #expect(h.state["state"] == "ringing")
        #expect(h.feature.ringing?.test == true)
        #expect(h.nextTrigger(id) == planned)
        #expect(h.feature.persistent.map { $0["alarms"] } == persistentBefore)
        h.send(.dismiss)
        h.run(until: "2026-11-21T07:00:00+01:00")
        #expect(h.takeEvents() == ["dismissed \(id)", "fired \(id)"])
        #expect(h.send(.test, "nope").failureCode == .notFound)
    }

    @Test func oneTimeAlarmDisablesItselfAfterFiring() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00"}"#)
        #expect(h.nextTrigger(id) == "2026-11-21T07:00:00+01:00")
        h.run(until: "2026-11-21T07:00:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        #expect(h.alarm(id)?["enabled"] == false)
        #expect(h.nextTrigger(id) == .null)
        h.send(.dismiss)
        h.run(until: "2026-11-23T08:00:00+01:00")
        #expect(h.takeEvents() == ["dismissed \(id)"])
        // Enabling it again plans the next 07:00.
        h.send(.enable, id)
        #expect(h.nextTrigger(id) == "2026-11-24T07:00:00+01:00")
    }

    @Test func skipNextSkipsOneOccurrenceAndClearsItself() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        _ = try h.send(.skip, id).get()
        #expect(h.alarm(id)?["skip_next"] == true)
        #expect(h.nextTrigger(id) == "2026-11-22T07:00:00+01:00")
        h.run(until: "2026-11-21T08:00:00+01:00")
        #expect(h.takeEvents() == [])
        #expect(h.alarm(id)?["skip_next"] == false)
        #expect(h.nextTrigger(id) == "2026-11-22T07:00:00+01:00")
        h.run(until: "2026-11-22T07:00:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        let once = h.add(#"{"time": "09:00"}"#)
        #expect(h.send(.skip, once).failureField == "repeat")
    }

    @Test func backwardClockJumpNeverRingsTwice() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        h.run(until: "2026-11-21T07:00:30+01:00")
        h.send(.dismiss)
        #expect(h.takeEvents() == ["fired \(id)", "dismissed \(id)"])
        // NTP (or a person) sets the clock back an hour.
        h.now = instant("2026-11-21T06:10:00+01:00")
        h.feature.clockChanged(context: h.context, outbox: &h.outbox)
        h.run(until: "2026-11-21T07:30:00+01:00")
        #expect(h.takeEvents() == [])
        h.run(until: "2026-11-22T07:00:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
    }

    @Test func forwardJumpOverAnAlarmFiresItOnce() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        h.advance(to: "2026-11-21T07:05:00+01:00")
        #expect(h.eventBodies().first?["scheduled"] == "2026-11-21T07:00:00+01:00")
        #expect(h.eventBodies().first?["at"] == "2026-11-21T07:05:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)"])
        h.advance(to: "2026-11-21T07:05:00+01:00")
        #expect(h.takeEvents() == [])
        // Jumping past ring_minutes reports missed instead.
        h.send(.dismiss)
        h.outbox.removeAll()
        h.advance(to: "2026-11-22T07:10:00+01:00")
        #expect(h.takeEvents() == ["missed \(id)"])
    }

    @Test func longDowntimeIsReportedMissedOnceAfterRestore() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        let saved = try #require(h.feature.persistent)
        // Three days later the node starts again from its state file.
        var restarted = AlarmHarness(now: "2026-11-24T09:00:00+01:00")
        restarted.feature = AlarmsFeature(restoring: saved)
        restarted.advance(to: "2026-11-24T09:00:00+01:00")
        #expect(restarted.eventBodies().first?["scheduled"] == "2026-11-24T07:00:00+01:00")
        #expect(restarted.takeEvents() == ["missed \(id)"])
        restarted.advance(to: "2026-11-24T09:00:01+01:00")
        #expect(restarted.takeEvents() == [])
        #expect(restarted.nextTrigger(id) == "2026-11-25T07:00:00+01:00")
    }

    @Test func restartShortlyAfterTheTimeStillRings() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "weekdays", "ring_minutes": 10}"#)
        h.run(until: "2026-11-22T12:00:00+01:00")
        let saved = try #require(h.feature.persistent)
        var restarted = AlarmHarness(now: "2026-11-23T07:09:59+01:00")
        restarted.feature = AlarmsFeature(restoring: saved)
        restarted.advance(to: "2026-11-23T07:09:59+01:00")
        #expect(restarted.takeEvents() == ["fired \(id)"])
        // The ring ends ring_minutes after it started, not after the scheduled time.
        restarted.run(until: "2026-11-23T07:19:58+01:00")
        #expect(restarted.takeEvents() == [])
        restarted.run(until: "2026-11-23T07:19:59+01:00")
        #expect(restarted.takeEvents() == ["timed_out \(id)"])
    }

    @Test func ringAndSnoozeSurviveARestart() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        h.run(until: "2026-11-21T07:00:00+01:00")
        h.send(.snooze, "5")
        let saved = try #require(h.feature.persistent)
        let restored = AlarmsFeature(restoring: saved)
        #expect(restored == h.feature)
        var restarted = AlarmHarness(now: "2026-11-21T07:05:00+01:00")
        restarted.feature = restored
        restarted.advance(to: "2026-11-21T07:05:00+01:00")
        #expect(restarted.eventBodies().first?["snooze_count"] == 1)
        #expect(restarted.takeEvents() == ["fired \(id)"])
    }

    @Test func springForwardNightRingsAtTheFirstMinuteAfterTheGapAndFallBackOnce() {
        var h = AlarmHarness(now: "2026-03-28T22:00:00+01:00")
        let id = h.add(#"{"time": "02:30", "repeat": "daily", "ring_minutes": 1}"#)
        h.run(until: "2026-03-29T01:59:59+01:00")
        #expect(h.takeEvents() == [])
        h.run(until: "2026-03-29T03:00:00+02:00")
        #expect(h.eventBodies().first?["at"] == "2026-03-29T03:00:00+02:00")
        #expect(h.takeEvents() == ["fired \(id)"])

        var fall = AlarmHarness(now: "2026-10-24T22:00:00+02:00")
        let fallID = fall.add(#"{"time": "02:30", "repeat": "daily", "ring_minutes": 1}"#)
        fall.run(until: "2026-10-25T04:00:00+01:00")
        #expect(fall.eventBodies().first?["at"] == "2026-10-25T02:30:00+02:00")
        #expect(fall.takeEvents() == ["fired \(fallID)", "timed_out \(fallID)"])
    }

    @Test func fireWhileAnotherRingsTakesOverTheRing() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let early = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        let late = h.add(#"{"time": "07:05", "repeat": "daily"}"#)
        h.run(until: "2026-11-21T07:05:00+01:00")
        #expect(h.takeEvents() == ["fired \(early)", "fired \(late)"])
        #expect(h.state["alarm_id"] == .string(late))
    }
}

extension Result where Failure == CommandError {
    var failureField: String? { if case .failure(let error) = self { error.field } else { nil } }
    var failureCode: CommandError.Code? { if case .failure(let error) = self { error.code } else { nil } }
}
