import Testing
@testable import NoiseClockCore

@Suite struct AlarmParsingTests {
    static func parse(_ json: String) throws(CommandError) -> Alarm {
        let object = try! JSONParser().parse(json).objectValue!
        return try Alarm.parseNew(object, newID: "new-id", catalog: testCatalog)
    }

    @Test(arguments: [
        ("07:30", 7, 30), ("7:30", 7, 30), ("19:30", 19, 30), ("00:00", 0, 0), ("23:59", 23, 59), ("07:30:00", 7, 30),
        ("7:30 AM", 7, 30), ("7:30 am", 7, 30), ("7:30AM", 7, 30), ("7:30 PM", 19, 30), ("AM 7:30", 7, 30), ("PM 7:30", 19, 30),
        ("12:00 AM", 0, 0), ("12:30 AM", 0, 30), ("12:00 PM", 12, 0), ("12:45 pm", 12, 45), ("11:59 PM", 23, 59),
        ("오전 7:30", 7, 30), ("오후 7:30", 19, 30), ("오후 12:10", 12, 10), ("오전 12:10", 0, 10), ("7:30 오후", 19, 30),
        ("  07:30  ", 7, 30), ("7:30 a.m.", 7, 30),
    ])
    func parsesTimeForms(text: String, hour: Int, minute: Int) {
        #expect(AlarmTime(parsing: text) == AlarmTime(hour: hour, minute: minute))
    }

    @Test(arguments: ["24:00", "7:60", "7", "7:3", "07:30:15", "13:00 PM", "0:30 AM", "7.30", "", "AM", "7:30 XM", "-1:30", "07:30:00:00", "１:30",
        "7:30 AM PM"])
    func refusesBadTimes(text: String) {
        #expect(AlarmTime(parsing: text) == nil)
    }

    @Test func defaultsFollowTheContract() throws {
        let alarm = try Self.parse(#"{"time": "7:30 AM"}"#)
        #expect(alarm.json.serialized == #"{"id":"new-id","time":"07:30","enabled":true,"label":"Alarm","description":"","repeat":[],"date":null,"#
            + #""sound":"classic","volume":80,"vibrate":false,"snooze_minutes":9,"ramp_seconds":30,"ring_minutes":10,"pre_alarm_minutes":0,"#
            + #""skip_next":false,"start_volume":0,"pre_alarm_sound":"none","skip_dates":[],"light_minutes":0,"group":null,"speak_time":false}"#)
    }

    @Test func everyFieldIsRead() throws {
        let alarm = try Self.parse(#"""
            {"id": "wake_1", "time": "오후 6:05", "enabled": false, "label": "Gym", "description": "bag!", "repeat": ["fri", "mon", "wed"],
             "sound": "birds", "volume": 0, "vibrate": true, "snooze_minutes": 20, "ramp_seconds": 600, "ring_minutes": 60,
             "pre_alarm_minutes": 120, "skip_next": true, "light_minutes": 25, "speak_time": true,
             "next_trigger": "ignored", "repeat_text": "ignored"}
            """#)
        #expect(alarm.json.serialized == #"{"id":"wake_1","time":"18:05","enabled":false,"label":"Gym","description":"bag!","repeat":["mon","wed","#
            + #""fri"],"date":null,"sound":"birds","volume":0,"vibrate":true,"snooze_minutes":20,"ramp_seconds":600,"ring_minutes":60,"#
            + #""pre_alarm_minutes":120,"skip_next":true,"start_volume":0,"pre_alarm_sound":"none","skip_dates":[],"light_minutes":25,"#
                    + #""group":null,"speak_time":true}"#)
    }

    @Test(arguments: [
        (#""daily""#, AlarmRepeat.daily), (#""weekdays""#, .weekdays), (#""Weekends""#, .weekends), (#""never""#, .once),
        ("[]", .once), (#"["sat","sun"]"#, .weekends), (#"["mon","mon"]"#, AlarmRepeat([.mon])), (#""tue""#, AlarmRepeat([.tue])),
    ])
    func parsesRepeat(json: String, expected: AlarmRepeat) throws {
        #expect(try AlarmRepeat(parsing: JSONParser().parse(json)) == expected)
    }

    @Test(arguments: [
        (AlarmRepeat.once, "Once", "한 번"),
        (.daily, "Every day", "매일"),
        (.weekdays, "Weekdays", "주중"),
        (.weekends, "Weekends", "주말"),
        (AlarmRepeat([.mon]), "Every Monday", "월요일마다"),
        (AlarmRepeat([.sun]), "Every Sunday", "일요일마다"),
        (AlarmRepeat([.fri, .mon, .wed]), "Mon, Wed, Fri", "월, 수, 금"),
        (AlarmRepeat([.sat, .sun, .mon]), "Mon, Sat, Sun", "월, 토, 일"),
        (AlarmRepeat([.mon, .tue, .wed, .thu, .fri, .sat]), "Mon, Tue, Wed, Thu, Fri, Sat", "월, 화, 수, 목, 금, 토"),
    ])
    func repeatTexts(days: AlarmRepeat, en: String, ko: String) {
        #expect(days.text(.en) == en)
        #expect(days.text(.ko) == ko)
    }

    // (payload, error code, field)
    @Test(arguments: [
        (#"{}"#, "invalid_field", "time"),
        (#"{"time": "25:00"}"#, "invalid_field", "time"),
        (#"{"time": "7:60"}"#, "invalid_field", "time"),
        (#"{"time": 730}"#, "invalid_field", "time"),
        (#"{"time": "13:00 PM"}"#, "invalid_field", "time"),
        (#"{"time": null}"#, "invalid_field", "time"),
        (#"{"time": "07:30", "enabled": "yes"}"#, "invalid_field", "enabled"),
        (#"{"time": "07:30", "label": "\#(String(repeating: "x", count: 65))"}"#, "invalid_field", "label"),
        (#"{"time": "07:30", "label": 5}"#, "invalid_field", "label"),
        (#"{"time": "07:30", "label": null}"#, "invalid_field", "label"),
        (#"{"time": "07:30", "label": "a\nb"}"#, "invalid_field", "label"),
        (#"{"time": "07:30", "description": "\#(String(repeating: "y", count: 257))"}"#, "invalid_field", "description"),
        (#"{"time": "07:30", "repeat": "sometimes"}"#, "invalid_field", "repeat"),
        (#"{"time": "07:30", "repeat": ["mon", "xyz"]}"#, "invalid_field", "repeat"),
        (#"{"time": "07:30", "repeat": 5}"#, "invalid_field", "repeat"),
        (#"{"time": "07:30", "repeat": [1, 2]}"#, "invalid_field", "repeat"),
        (#"{"time": "07:30", "date": "2026-02-30"}"#, "invalid_field", "date"),
        (#"{"time": "07:30", "date": "tomorrow"}"#, "invalid_field", "date"),
        (#"{"time": "07:30", "date": "2026-12-24", "repeat": "daily"}"#, "invalid_field", "date"),
        (#"{"time": "07:30", "sound": "nope"}"#, "unknown_sound", "sound"),
        (#"{"time": "07:30", "sound": "../../etc/passwd"}"#, "unknown_sound", "sound"),
        (#"{"time": "07:30", "sound": 5}"#, "invalid_field", "sound"),
        (#"{"time": "07:30", "volume": 101}"#, "invalid_field", "volume"),
        (#"{"time": "07:30", "volume": -1}"#, "invalid_field", "volume"),
        (#"{"time": "07:30", "volume": 50.5}"#, "invalid_field", "volume"),
        (#"{"time": "07:30", "volume": "80"}"#, "invalid_field", "volume"),
        (#"{"time": "07:30", "vibrate": 1}"#, "invalid_field", "vibrate"),
        (#"{"time": "07:30", "speak_time": "yes"}"#, "invalid_field", "speak_time"),
        (#"{"time": "07:30", "snooze_minutes": 6}"#, "invalid_field", "snooze_minutes"),
        (#"{"time": "07:30", "snooze_minutes": 0}"#, "invalid_field", "snooze_minutes"),
        (#"{"time": "07:30", "ramp_seconds": 3601}"#, "invalid_field", "ramp_seconds"),
        (#"{"time": "07:30", "ring_minutes": 0}"#, "invalid_field", "ring_minutes"),
        (#"{"time": "07:30", "ring_minutes": 61}"#, "invalid_field", "ring_minutes"),
        (#"{"time": "07:30", "pre_alarm_minutes": 121}"#, "invalid_field", "pre_alarm_minutes"),
        (#"{"time": "07:30", "skip_next": true}"#, "invalid_field", "skip_next"),
        (#"{"time": "07:30", "colour": "red"}"#, "invalid_field", "colour"),
        (#"{"Time": "07:30", "time": "07:30"}"#, "invalid_field", "Time"),
        (#"{"time": "07:30", "id": ""}"#, "invalid_field", "id"),
        (#"{"time": "07:30", "id": "../x"}"#, "invalid_field", "id"),
        (#"{"time": "07:30", "id": 5}"#, "invalid_field", "id"),
    ])
    func refusesBadFields(json: String, code: String, field: String) {
        do {
            let alarm = try Self.parse(json)
            Issue.record("accepted \(json) as \(alarm)")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.field == field)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func emptyCatalogAcceptsPlausibleSoundIDs() throws {
        let object = try JSONParser().parse(#"{"time": "07:30", "sound": "my-bell_2"}"#).objectValue!
        #expect(try Alarm.parseNew(object, newID: "a", catalog: .empty).sound == "my-bell_2")
        let bad = try JSONParser().parse(#"{"time": "07:30", "sound": "My Bell"}"#).objectValue!
        #expect(throws: CommandError(.unknownSound, field: "sound", #"no alarm sound "My Bell" (see ~/sounds, or use "none")"#)) {
            try Alarm.parseNew(bad, newID: "a", catalog: .empty)
        }
        #expect(try Self.parse(#"{"time": "07:30", "sound": "none"}"#).sound == "none")
    }

    @Test func mergeChangesOnlyGivenFields() throws {
        let alarm = try Self.parse(#"{"time": "07:30", "repeat": "weekdays", "label": "Work", "skip_next": true}"#)
        let merged = try alarm.merging(try JSONParser().parse(#"{"id": "new-id", "volume": 50}"#).objectValue!, catalog: testCatalog)
        var expected = alarm
        expected.volume = 50
        #expect(merged == expected)
        // Becoming one-time drops a pending skip rather than refusing.
        let once = try alarm.merging(try JSONParser().parse(#"{"repeat": "never"}"#).objectValue!, catalog: testCatalog)
        #expect(once.skipNext == false && once.repeatDays == .once)
        #expect(throws: CommandError.invalidField("id", "id cannot be changed")) {
            try alarm.merging(try JSONParser().parse(#"{"id": "other"}"#).objectValue!, catalog: testCatalog)
        }
    }

    @Test func generatedIDsAreVersion4UUIDsAndDistinct() {
        var seen = Set<String>()
        for counter in UInt64(1)...2000 {
            let id = AlarmIDGenerator.uuid(now: Instant(milliseconds: 1_795_241_100_000), counter: counter)
            #expect(id.count == 36)
            let chars = Array(id)
            #expect(chars[8] == "-" && chars[13] == "-" && chars[18] == "-" && chars[23] == "-")
            #expect(chars[14] == "4")
            #expect("89ab".contains(chars[19]))
            #expect(Alarm.isValidID(id))
            seen.insert(id)
        }
        #expect(seen.count == 2000)
    }

    @Test func bookKeepsOrderAndIndexAcrossRemovals() throws {
        var book = AlarmBook()
        for i in 0..<AlarmBook.limit { try book.add(Alarm(id: "a\(i)", time: AlarmTime(hour: 7, minute: 0), sound: "none")) }
        #expect(throws: CommandError(.limitExceeded, "at most 100 alarms")) {
            try book.add(Alarm(id: "extra", time: AlarmTime(hour: 7, minute: 0), sound: "none"))
        }
        book.remove("a10")
        #expect(book["a10"] == nil)
        #expect(book["a11"]?.id == "a11")
        #expect(book["a99"]?.id == "a99")
        #expect(book.ids.prefix(12) == ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a11", "a12"])
        #expect(throws: CommandError.invalidField("id", "an alarm with id a0 already exists")) {
            try book.add(Alarm(id: "a0", time: AlarmTime(hour: 8, minute: 0), sound: "none"))
        }
    }
}
