import Testing
@testable import NoiseClockCore

@Suite struct AlarmDocumentTests {
    /// A version 1 state file as the node writes it (pending: 2026-11-23T07:00+01:00 in ms).
    static let v1 = #"""
        {"version": 1, "id_counter": 7,
         "alarms": [
           {"id": "work", "time": "07:00", "enabled": true, "label": "Work", "description": "", "repeat": ["mon","tue","wed","thu","fri"],
            "date": null, "sound": "classic", "volume": 60, "vibrate": false, "snooze_minutes": 9, "ramp_seconds": 30,
            "ring_minutes": 10, "pre_alarm_minutes": 0, "skip_next": false, "pending": 1795413600000, "pre_alarm_sent": false},
           {"id": "broken", "time": "99:99"},
           {"id": "trip", "time": "05:15", "date": "2026-12-24", "sound": "custom-bell", "speak_time": true},
           {"id": "off", "time": "10:00", "enabled": false, "pending": null}
         ],
         "ring": {"phase": "snoozed", "alarm": {"id": "work", "time": "07:00", "label": "Work"}, "others": [],
                  "scheduled": 1795240800000, "since": 1795240860000, "snooze_until": 1795241400000, "snooze_count": 2, "test": false}}
        """#

    @Test func loadsAVersion1File() throws {
        let feature = AlarmsFeature(restoring: try JSONParser().parse(Self.v1))
        #expect(feature.book.ids == ["work", "trip", "off"])
        #expect(feature.idCounter == 7)
        #expect(feature.book["work"]?.volume == 60)
        #expect(feature.book["trip"]?.sound == "custom-bell")
        // speak_time (v1.2) is read back; a file written before it has the default.
        #expect(feature.book["trip"]?.speakTime == true && feature.book["work"]?.speakTime == false)
        #expect(feature.plans["work"]?.pending == instant("2026-11-23T07:00:00+01:00"))
        #expect(feature.plans["trip"] == nil) // planned on the first advance
        #expect(feature.plans["off"] == nil)
        #expect(feature.ring?.phase == .snoozed)
        #expect(feature.ring?.snoozeCount == 2)
        #expect(feature.ring?.snoozeUntil == instant("2026-11-21T07:10:00+01:00"))

        var h = AlarmHarness(now: "2026-11-21T07:20:00+01:00")
        h.feature = feature
        #expect(try #require(h.feature.nextDeadline(context: h.context)) <= h.now) // overdue: wake at once
        h.advance(to: "2026-11-21T07:20:00+01:00")
        // The snooze ended at 07:10 while the node was down: ringing would have ended by 07:20.
        #expect(h.takeEvents() == ["timed_out work"])
        #expect(h.nextTrigger("trip") == "2026-12-24T05:15:00+01:00")
        // Written back, it reads the same.
        let again = AlarmsFeature(restoring: h.feature.persistent)
        #expect(again == h.feature)
    }

    @Test(arguments: [nil, "null", "[]", #"{"version": 2, "alarms": []}"#, #"{"alarms": [{"id": "a", "time": "07:00"}]}"#,
        #"{"version": 1, "alarms": 5}"#])
    func unusableDocumentsGiveAnEmptyBook(text: String?) throws {
        let document = try text.map { try JSONParser().parse($0) }
        let feature = AlarmsFeature(restoring: document)
        #expect(feature == AlarmsFeature())
    }

    @Test func persistentDocumentShape() throws {
        var h = AlarmHarness(now: "2026-11-21T06:00:00+01:00")
        _ = h.add(#"{"time": "07:00", "id": "a"}"#)
        let document = try #require(h.feature.persistent)
        #expect(document.objectValue?.keys == ["version", "id_counter", "alarms", "ring", "paused_until"])
        #expect(document["version"] == 1)
        #expect(document["alarms"]?.arrayValue?.first?["pending"] == .int(instant("2026-11-21T07:00:00+01:00").milliseconds))
        #expect(document["ring"] == .null)
    }
}
