import Testing
@testable import NoiseClockCore

@Suite struct AlarmCommandTests {
    @Test func addAnswersWithTheStoredAlarmAndItsOutputFields() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let result = try h.send(.add, #"{"time": "오전 7:30", "repeat": ["mon", "wed", "fri"], "request_id": "r1"}"#).get()
        let id = try #require(result["id"]?.stringValue)
        #expect(result.serialized == #"{"id":"\#(id)","time":"07:30","enabled":true,"label":"Alarm","description":"","repeat":["mon","wed","fri"],"#
            + #""date":null,"sound":"classic","volume":80,"vibrate":false,"snooze_minutes":9,"ramp_seconds":30,"ring_minutes":10,"#
            + #""pre_alarm_minutes":0,"skip_next":false,"start_volume":0,"pre_alarm_sound":"none","skip_dates":[],"light_minutes":0,"#
                    + #""group":null,"speak_time":false,"next_trigger":"2026-11-23T07:30:00+01:00","repeat_text":"Mon, Wed, Fri"}"#)
        h.locale = .ko
        #expect(h.alarm(id)?["repeat_text"] == "월, 수, 금")
        let retained = h.feature.retained(context: h.context)
        #expect(retained.map(\.topic) == ["alarms", "alarm"])
        #expect(retained.allSatisfy { $0.retain && $0.qos == 1 })
        #expect(h.state.serialized == #"{"state":"idle","alarm_id":null,"label":null,"since":null,"snooze_until":null,"next":{"id":"\#(id)","#
            + #""label":"Alarm","at":"2026-11-23T07:30:00+01:00"},"paused_until":null,"source":null,"ready":null}"#)
    }

    @Test func badPayloadsChangeNothing() {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00"}"#)
        let before = h.feature
        let refused: [(AlarmCommand, String, CommandError.Code, String?)] = [
            (.add, "hello", .invalidJSON, nil),
            (.add, "[]", .invalidJSON, nil),
            (.add, #"{"time": "7"}"#, .invalidField, "time"),
            (.add, #"{"time": "07:00", "id": "\#(id)"}"#, .invalidField, "id"),
            (.update, #"{"label": "x"}"#, .invalidField, "id"),
            (.update, #"{"id": "missing", "label": "x"}"#, .notFound, nil),
            (.update, #"{"id": "\#(id)", "volume": 300}"#, .invalidField, "volume"),
            (.update, #"{"id": "\#(id)", "sound": "zzz"}"#, .unknownSound, "sound"),
            (.delete, "", .invalidField, "id"),
            (.delete, "missing", .notFound, nil),
            (.enable, #"{"id": 5}"#, .invalidField, "id"),
            (.duplicate, "missing", .notFound, nil),
            (.skip, id, .invalidField, "repeat"),
            (.setAll, #"{"time": "07:00"}"#, .invalidJSON, nil),
            (.setAll, #"[{"time": "07:00", "id": "a"}, {"time": "08:00", "id": "a"}]"#, .invalidField, "id"),
            (.setAll, #"[{"time": "07:00"}, {"time": "nope"}]"#, .invalidField, "time"),
            (.setAll, #"[5]"#, .invalidJSON, nil),
        ]
        for (topic, payload, code, field) in refused {
            let result = h.send(topic, payload)
            #expect(result.failureCode == code, "\(topic.rawValue) \(payload)")
            #expect(result.failureField == field, "\(topic.rawValue) \(payload)")
            #expect(h.feature == before, "\(topic.rawValue) \(payload)")
        }
        #expect(h.outbox.isEmpty)
    }

    @Test func commandsThatChangeNothingLeaveTheFeatureEqual() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "label": "Wake"}"#)
        h.send(.skip, id)
        let before = h.feature
        for (topic, payload) in [
            (AlarmCommand.update, #"{"id": "\#(id)", "label": "Wake", "time": "7:00 AM"}"#),
            (.enable, id), (.enable, #"{"id": "\#(id)"}"#), (.skip, id),
        ] {
            _ = try h.send(topic, payload).get()
            #expect(h.feature == before, "\(topic.rawValue)")
        }
        // The declarative form: the same list again, with or without ids, is no change.
        let list = #"[{"time": "06:00", "repeat": "weekdays"}, {"time": "09:30", "label": "Late", "id": "late"}]"#
        _ = try h.send(.setAll, list).get()
        let afterSet = h.feature
        _ = try h.send(.setAll, list).get()
        #expect(h.feature == afterSet)
        _ = try h.send(.setAll, h.feature.alarmsJSON(context: h.context).serialized).get()
        #expect(h.feature == afterSet)
    }

    @Test func updateReplansOnlyWhenSomethingChanged() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        h.now = instant("2026-11-21T06:30:00+01:00")
        let moved = try h.send(.update, #"{"id": "\#(id)", "time": "06:45"}"#).get()
        #expect(moved["next_trigger"] == "2026-11-21T06:45:00+01:00")
        #expect(moved["repeat"] == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
        let later = try h.send(.update, #"{"id": "\#(id)", "time": "06:15"}"#).get()
        #expect(later["next_trigger"] == "2026-11-22T06:15:00+01:00")
        let disabled = try h.send(.disable, id).get()
        #expect(disabled["enabled"] == false && disabled["next_trigger"] == .null)
        h.run(until: "2026-11-23T00:00:00+01:00")
        #expect(h.takeEvents() == [])
    }

    @Test func deleteDuplicateAndLimit() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "label": "Original"}"#)
        let copy = try h.send(.duplicate, #"{"id": "\#(id)"}"#).get()
        #expect(copy["id"] != .string(id))
        #expect(copy["label"] == "Original")
        #expect(h.feature.book.count == 2)
        #expect(try h.send(.delete, id).get()["id"] == .string(id))
        #expect(h.feature.book.ids == [copy["id"]!.stringValue!])
        for i in 1..<AlarmBook.limit { _ = try h.send(.add, #"{"time": "07:00", "label": "n\#(i)"}"#).get() }
        #expect(h.feature.book.count == AlarmBook.limit)
        #expect(h.send(.add, #"{"time": "07:00"}"#).failureCode == .limitExceeded)
        #expect(h.send(.duplicate, h.feature.book.ids[0]).failureCode == .limitExceeded)
        let tooMany = "[" + Array(repeating: #"{"time": "07:00"}"#, count: 101).joined(separator: ",") + "]"
        #expect(h.send(.setAll, tooMany).failureCode == .limitExceeded)
        #expect(Set(h.feature.book.ids).count == AlarmBook.limit)
    }

    @Test func alarmsSetReplacesTheListAndKeepsPlansOfUnchangedAlarms() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let keep = h.add(#"{"time": "07:00", "repeat": "daily", "id": "keep"}"#)
        _ = h.add(#"{"time": "08:00", "id": "gone"}"#)
        h.send(.skip, keep)
        let result = try h.send(.setAll,
            #"[{"time": "09:00", "id": "new"}, {"time": "07:00", "repeat": "daily", "id": "keep", "skip_next": true}]"#).get()
        #expect(result.arrayValue?.map { $0["id"] } == ["new", "keep"])
        #expect(h.feature.book.ids == ["new", "keep"])
        #expect(h.nextTrigger("keep") == "2026-11-22T07:00:00+01:00")
        #expect(h.feature.plans["gone"] == nil)
        _ = try h.send(.setAll, "[]").get()
        #expect(h.feature.book.isEmpty && h.feature.plans.isEmpty)
    }

    @Test func deletingTheRingingAlarmDoesNotCutTheRingShort() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "label": "Wake"}"#)
        h.run(until: "2026-11-21T07:00:00+01:00")
        _ = try h.send(.delete, id).get()
        #expect(h.state["state"] == "ringing")
        #expect(h.state["label"] == "Wake")
        h.run(until: "2026-11-21T07:10:00+01:00")
        #expect(h.takeEvents() == ["fired \(id)", "timed_out \(id)"])
    }
}

@Suite struct AlarmCommandTimingTests {
    @Test func anEditJustAfterTheMinuteDoesNotLoseTheRing() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily"}"#)
        // The timer has not woken the node yet when the edit arrives.
        h.now = instant("2026-11-21T07:00:00.300+01:00")
        _ = try h.send(.update, #"{"id": "\#(id)", "label": "Renamed"}"#).get()
        #expect(h.takeEvents() == ["fired \(id)"])
        #expect(h.state["label"] == "Alarm") // the ring carries the alarm as it fired
    }

    @Test func editingTheLabelInsideThePreAlarmWindowDoesNotRepeatIt() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        let id = h.add(#"{"time": "07:00", "repeat": "daily", "pre_alarm_minutes": 30}"#)
        h.run(until: "2026-11-21T06:40:00+01:00")
        _ = try h.send(.update, #"{"id": "\#(id)", "label": "Renamed"}"#).get()
        h.run(until: "2026-11-21T06:59:00+01:00")
        #expect(h.takeEvents() == ["pre_alarm \(id)"])
    }
}
