import Testing
@testable import NoiseClockCore

/// Timers on the core: start forms, presets, the ring through the alarms' ring cycle with
/// `source: "timer"`, snooze and dismiss, the one-minute time-out, and restarts.
@Suite struct TimerCoreTests {
    @Test(arguments: [
        ("20", 1200, "Timer", "chime"),
        (#"{"minutes": 5}"#, 300, "Timer", "chime"),
        (#"{"seconds": 90, "label": "Tea", "sound": "classic"}"#, 90, "Tea", "classic"),
        (#"{"preset": "nap"}"#, 1200, "Nap", "chime"),
        (#"{"preset": "rest", "minutes": 30, "sound": "none"}"#, 1800, "Rest", "none"),
        ("power_nap", 600, "Power nap", "chime"),
    ])
    func startForms(payload: String, seconds: Int, label: String, sound: String) {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        let timer = h.ok("timer/start", payload)
        #expect(timer["seconds"] == .int(Int64(seconds)) && timer["label"] == .string(label) && timer["sound"] == .string(sound))
        #expect(timer["started_at"] == "2026-11-21T14:00:00+01:00")
        #expect(timer["ends_at"] == .string(ISO8601.string(instant("2026-11-21T14:00:00+01:00").adding(seconds: Int64(seconds)), in: h.context.zone)))
        #expect(h.take("timer/event") == ["started \(timer["id"]?.stringValue ?? "")"])
        #expect(h.retained("timers")?.arrayValue?.count == 1)
    }

    @Test(arguments: [
        ("0", "minutes"), ("1441", "minutes"), (#"{"seconds": 86401}"#, "seconds"), (#"{"minutes": 1, "seconds": 1}"#, "seconds"),
        (#"{"preset": "nope"}"#, "preset"), (#"{"minutes": 5, "sound": "rain"}"#, "sound"), ("", "minutes"), (#"{"label": "x"}"#, "minutes"),
    ])
    func refusesBadStarts(payload: String, field: String) {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        #expect(h.refused("timer/start", payload)?.field == field)
        #expect(h.core.timers.timers.isEmpty)
    }

    @Test func atMostTenAtOnceAndCancel() {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        let ids = (1...10).map { h.ok("timer/start", "\($0)")["id"]?.stringValue ?? "" }
        #expect(h.refused("timer/start", "5")?.code == .limitExceeded)
        _ = h.take("timer/event")
        h.ok("timer/cancel", ids[0])
        h.ok("timer/cancel", #"{"id": "\#(ids[1])"}"#)
        #expect(h.take("timer/event") == ["cancelled \(ids[0])", "cancelled \(ids[1])"])
        #expect(h.refused("timer/cancel", ids[0])?.code == .notFound)
        let all = h.ok("timer/cancel", "all")
        #expect(all.arrayValue?.count == 8 && h.retained("timers") == [])
        #expect(h.take("timer/event").count == 8)
        // Nothing rings later.
        h.run(until: "2026-11-21T14:30:00+01:00")
        #expect(h.take("timer/event") == [] && h.retained("alarm")?["state"] == "idle")
    }

    @Test func aFinishedTimerRingsThroughTheRingCycle() throws {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        let id = try #require(h.ok("timer/start", #"{"minutes": 20, "label": "Nap"}"#)["id"]?.stringValue)
        _ = h.take("timer/event")
        h.run(until: "2026-11-21T14:19:59+01:00")
        #expect(h.bodies("timer/event").isEmpty && h.retained("alarm")?["state"] == "idle")
        h.run(until: "2026-11-21T14:20:00+01:00")
        let finished = try #require(h.bodies("timer/event").first)
        #expect(finished["event"] == "finished" && finished["id"] == .string(id) && finished["missed"] == false)
        #expect(finished["at"] == "2026-11-21T14:20:00+01:00")
        let fired = try #require(h.bodies("alarm/fired").first)
        #expect(fired["id"] == .string(id) && fired["label"] == "Nap" && fired["source"] == "timer" && fired["sound"] == "chime")
        let state = try #require(h.retained("alarm"))
        #expect(state["state"] == "ringing" && state["alarm_id"] == .string(id) && state["label"] == "Nap" && state["source"] == "timer")
        #expect(h.scene.alarm?.sound == "chime")
        #expect(h.retained("timers") == [])
        // Snooze and dismiss work as for an alarm.
        h.outbox = []
        h.ok("alarm/snooze", "5")
        #expect(h.bodies("alarm/event").first?["source"] == "timer" && h.bodies("alarm/event").first?["event"] == "snoozed")
        h.run(until: "2026-11-21T14:25:00+01:00")
        #expect(h.retained("alarm")?["state"] == "ringing")
        h.outbox = []
        h.ok("alarm/dismiss")
        #expect(h.bodies("alarm/event").map { $0["event"] } == ["dismissed"])
        #expect(h.retained("alarm")?["state"] == "idle" && h.retained("alarm")?["source"] == .null)
    }

    @Test func aTimerRingsOneMinuteThenTimesOut() {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        h.ok("timer/start", #"{"seconds": 30}"#)
        h.run(until: "2026-11-21T14:00:30+01:00")
        #expect(h.retained("alarm")?["state"] == "ringing")
        h.outbox = []
        h.run(until: "2026-11-21T14:01:29+01:00")
        #expect(h.retained("alarm")?["state"] == "ringing")
        h.run(until: "2026-11-21T14:01:30+01:00")
        // (This core has no audio engine to confirm the sound: the failsafe's `failed` comes too.)
        #expect(h.bodies("alarm/event").map { $0["event"] }.filter { $0 != "failed" } == ["timed_out"])
        #expect(h.bodies("alarm/event").allSatisfy { $0["source"] == "timer" })
        #expect(h.retained("alarm")?["state"] == "idle")
    }

    @Test func aSilentTimerOnlyFinishesAndATimerDoesNotCutIntoAnAlarm() {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        h.ok("timer/start", #"{"minutes": 1, "sound": "none"}"#)
        h.run(until: "2026-11-21T14:01:00+01:00")
        #expect(h.take("timer/event").map { $0.prefix(8) } == ["started ", "finished"])
        #expect(h.retained("alarm")?["state"] == "idle")
        h.ok("alarm/add", #"{"id": "wake", "time": "14:02", "sound": "classic"}"#)
        h.ok("timer/start", "2")
        h.run(until: "2026-11-21T14:03:00+01:00")
        #expect(h.retained("alarm")?["alarm_id"] == "wake" && h.retained("alarm")?["source"] == "alarm")
        #expect(h.bodies("timer/event").contains { $0["event"] == "finished" })
    }

    @Test func timersSurviveARestartAndOneThatEndedWhileDownIsMissed() throws {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        let short = try #require(h.ok("timer/start", "10")["id"]?.stringValue)
        let long = try #require(h.ok("timer/start", "60")["id"]?.stringValue)
        _ = h.take("timer/event")
        h.restart(at: "2026-11-21T14:30:00+01:00")
        let missed = h.bodies("timer/event")
        #expect(missed.count == 1 && missed[0]["id"] == .string(short) && missed[0]["event"] == "finished" && missed[0]["missed"] == true)
        #expect(h.retained("alarm")?["state"] == "idle" && h.bodies("alarm/fired").isEmpty, "a missed timer does not ring")
        #expect(h.retained("timers")?.arrayValue?.map { $0["id"] } == [.string(long)])
        h.outbox = []
        h.run(until: "2026-11-21T15:00:00+01:00")
        #expect(h.bodies("timer/event").first?["missed"] == false)
        #expect(h.retained("alarm")?["alarm_id"] == .string(long))
        // The ring itself survives a restart too, still a timer's.
        h.restart(at: "2026-11-21T15:00:10+01:00")
        #expect(h.retained("alarm")?["state"] == "ringing" && h.retained("alarm")?["source"] == "timer")
    }

    @Test func presetsHaveDefaultsAndCanBeReplaced() {
        var h = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        #expect(h.retained("timer/presets") == [
            ["id": "nap", "label": "Nap", "minutes": 20, "sound": "chime"],
            ["id": "power_nap", "label": "Power nap", "minutes": 10, "sound": "chime"],
            ["id": "rest", "label": "Rest", "minutes": 45, "sound": "chime"],
        ])
        h.ok("timer/presets/set", #"[{"id": "tea", "label": "Tea", "minutes": 4, "sound": "classic"}]"#)
        #expect(h.retained("timer/presets")?.arrayValue?.map { $0["id"] } == ["tea"])
        #expect(h.ok("timer/start", "tea")["seconds"] == 240)
        #expect(h.refused("timer/presets/set", #"[{"id": "x", "minutes": 0}]"#)?.field == "minutes")
        let eleven = (0...10).map { #"{"id": "p\#($0)", "minutes": 1}"# }.joined(separator: ",")
        #expect(h.refused("timer/presets/set", "[\(eleven)]")?.code == .limitExceeded)
        // Presets survive a restart.
        h.restart(at: "2026-11-21T14:01:00+01:00")
        #expect(h.retained("timer/presets")?.arrayValue?.map { $0["id"] } == ["tea"])
    }
}
