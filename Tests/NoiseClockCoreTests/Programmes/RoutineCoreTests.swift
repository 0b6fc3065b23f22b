import Testing
@testable import NoiseClockCore

/// Routines on the core: the noise follows them, fades are in the scene, a manual command wins,
/// an alarm ducks them, and a restart inside the window resumes them.
@Suite struct RoutineCoreTests {
    static let bedtime = #"{"id": "bed", "label": "Bedtime", "start": "22:30", "end": "06:45", "sound": "rain", "volume": 30, "fade_in_seconds": "#
        + #"600, "fade_out_seconds": 120}"#

    func atBedtime() -> ProgrammeHarness {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("routine/add", Self.bedtime)
        h.run(until: "2026-11-21T22:30:00+01:00")
        return h
    }

    @Test func addAnswersWithTheRoutineAndItsOutputFields() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        let result = h.ok("routine/add", #"{"start": "10:30 PM"}"#)
        #expect(result["label"] == "Routine" && result["enabled"] == true && result["start"] == "22:30")
        #expect(result["repeat"] == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] && result["repeat_text"] == "Every day")
        #expect(result["duration_minutes"] == 480 && result["end"] == nil)
        #expect(result["sound"] == "brown" && result["volume"] == 40 && result["fade_in_seconds"] == 300 && result["fade_out_seconds"] == 300)
        #expect(result["active"] == false && result["next_start"] == "2026-11-21T22:30:00+01:00" && result["ends_at"] == .null)
        #expect(h.retained("routines")?.arrayValue?.count == 1)
    }

    @Test(arguments: [
        (#"{"start": "22:30", "end": "06:00", "duration_minutes": 60}"#, "end"),
        (#"{"start": "25:00"}"#, "start"),
        (#"{"end": "06:00"}"#, "start"),
        (#"{"start": "22:30", "duration_minutes": 0}"#, "duration_minutes"),
        (#"{"start": "22:30", "duration_minutes": 1441}"#, "duration_minutes"),
        (#"{"start": "22:30", "volume": 101}"#, "volume"),
        (#"{"start": "22:30", "fade_in_seconds": 3601}"#, "fade_in_seconds"),
        (#"{"start": "22:30", "sound": "classic"}"#, "sound"),
        (#"{"start": "22:30", "label": 5}"#, "label"),
        (#"{"start": "22:30", "colour": "red"}"#, "colour"),
    ])
    func refusesBadRoutines(json: String, field: String) {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        let before = h.core.routines
        #expect(h.refused("routine/add", json)?.field == field)
        #expect(h.core.routines == before)
    }

    @Test func aNullEndOrDurationIsNotGiven() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        let timed = h.ok("routine/add", #"{"id": "a", "start": "22:30", "end": null, "duration_minutes": 90}"#)
        #expect(timed["duration_minutes"] == 90)
        let ending = h.ok("routine/update", #"{"id": "a", "end": "06:00", "duration_minutes": null}"#)
        #expect(ending["end"] == "06:00")
    }

    @Test func atMostTwentyRoutines() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        for _ in 0..<20 { h.ok("routine/add", #"{"start": "22:30"}"#) }
        #expect(h.refused("routine/add", #"{"start": "22:30"}"#)?.code == .limitExceeded)
    }

    @Test func theNoiseFollowsTheRoutineWithItsFades() throws {
        var h = atBedtime()
        #expect(h.take("routine/event") == ["started bed"])
        #expect(h.noise["playing"] == true && h.noise["sound"] == "rain" && h.noise["volume"] == 30 && h.noise["routine"] == "bed")
        let noise = try #require(h.scene.noise)
        #expect(noise.fadeIn == AudioScene.FadeWindow(start: instant("2026-11-21T22:30:00+01:00"), end: instant("2026-11-21T22:40:00+01:00")))
        #expect(noise.fadeOut == AudioScene.FadeWindow(start: instant("2026-11-22T06:43:00+01:00"), end: instant("2026-11-22T06:45:00+01:00")))
        #expect(AudioScene.fadeFactor(noise, at: instant("2026-11-21T22:30:00+01:00")) == 0)
        #expect(AudioScene.fadeFactor(noise, at: instant("2026-11-21T22:35:00+01:00")) == 0.5)
        #expect(AudioScene.fadeFactor(noise, at: instant("2026-11-22T03:00:00+01:00")) == 1)
        #expect(AudioScene.fadeFactor(noise, at: instant("2026-11-22T06:44:00+01:00")) == 0.5)
        let listed = try #require(h.retained("routines")?.arrayValue?.first)
        #expect(listed["active"] == true && listed["ends_at"] == "2026-11-22T06:45:00+01:00")

        h.run(until: "2026-11-22T06:44:59+01:00")
        #expect(h.take("routine/event") == [])
        h.run(until: "2026-11-22T06:45:00+01:00")
        #expect(h.take("routine/event") == ["ended bed"])
        #expect(h.noise["playing"] == false && h.noise["routine"] == .null && h.scene.noise == nil)
        #expect(h.retained("routines")?.arrayValue?.first?["active"] == false)
    }

    @Test func aManualNoiseCommandWinsAndTheRoutineIsOverridden() throws {
        var h = atBedtime()
        _ = h.take("routine/event")
        h.advance(to: "2026-11-21T23:00:00+01:00")
        #expect(h.ok("noise/volume/set", "55")["routine"] == .null, "the answer shows the noise as it is now")
        #expect(h.take("routine/event") == ["overridden bed"])
        #expect(h.noise["playing"] == true && h.noise["volume"] == 55 && h.noise["routine"] == .null)
        let noise = try #require(h.scene.noise)
        #expect(noise.fadeIn == nil && noise.fadeOut == nil, "the routine's fades went with it")
        // The window's end passes without a second event, and the noise keeps playing.
        h.run(until: "2026-11-22T07:00:00+01:00")
        #expect(h.take("routine/event") == [])
        #expect(h.noise["playing"] == true)
        // A refused noise command does not end a routine.
        var again = atBedtime()
        _ = again.take("routine/event")
        #expect(again.refused("noise/volume/set", "120") != nil)
        #expect(again.take("routine/event") == [] && again.noise["routine"] == "bed")
        // A preview neither.
        again.ok("noise/preview", "pink")
        #expect(again.take("routine/event") == [] && again.noise["routine"] == "bed")
    }

    @Test func stopFadesOutFromNowThenEnds() throws {
        var h = atBedtime()
        _ = h.take("routine/event")
        h.advance(to: "2026-11-21T23:00:00+01:00")
        h.ok("routine/stop")
        #expect(h.scene.noise?.fadeOut == AudioScene.FadeWindow(start: instant("2026-11-21T23:00:00+01:00"),
            end: instant("2026-11-21T23:02:00+01:00")))
        #expect(h.retained("routines")?.arrayValue?.first?["ends_at"] == "2026-11-21T23:02:00+01:00")
        h.run(until: "2026-11-21T23:02:00+01:00")
        #expect(h.take("routine/event") == ["ended bed"])
        #expect(h.noise["playing"] == false)
        #expect(h.refused("routine/stop")?.code == .notFound)
        // Tomorrow it starts again.
        #expect(h.retained("routines")?.arrayValue?.first?["next_start"] == "2026-11-22T22:30:00+01:00")
    }

    @Test func startingAnotherRoutineOverridesTheFirst() {
        var h = atBedtime()
        h.ok("routine/add", #"{"id": "calm", "start": "12:00", "duration_minutes": 30, "sound": "pink"}"#)
        _ = h.take("routine/event")
        let result = h.ok("routine/start", "calm")
        #expect(result["active"] == true && result["ends_at"] == "2026-11-21T23:00:00+01:00")
        #expect(h.take("routine/event") == ["overridden bed", "started calm"])
        #expect(h.noise["sound"] == "pink" && h.noise["routine"] == "calm")
        #expect(h.refused("routine/start", "nope")?.code == .notFound)
    }

    @Test func aRingingAlarmDucksTheRoutineWhichGoesOnAfterDismiss() throws {
        var h = atBedtime()
        h.ok("alarm/add", #"{"id": "wake", "time": "03:00", "sound": "classic"}"#)
        h.run(until: "2026-11-22T03:00:00+01:00")
        #expect(h.scene.alarm != nil && h.scene.noise?.sound == "rain", "the noise stays, ducked by the mixer")
        h.ok("alarm/dismiss")
        #expect(h.scene.alarm == nil)
        #expect(h.noise["routine"] == "bed" && h.scene.noise?.sound == "rain")
        #expect(h.take("routine/event") == ["started bed"])
    }

    @Test func aRestartInsideTheWindowResumesWithANewFadeIn() throws {
        var h = atBedtime()
        _ = h.take("routine/event")
        // Power cut at 02:00, back at 03:00.
        h.advance(to: "2026-11-22T02:00:00+01:00")
        h.restart(at: "2026-11-22T03:00:00+01:00")
        #expect(h.take("routine/event") == ["resumed bed"])
        #expect(h.noise["playing"] == true && h.noise["routine"] == "bed")
        let noise = try #require(h.scene.noise)
        #expect(noise.fadeIn?.start == instant("2026-11-22T03:00:00+01:00"))
        #expect(noise.fadeOut.map { $0.end } == instant("2026-11-22T06:45:00+01:00"))
        h.run(until: "2026-11-22T06:45:00+01:00")
        #expect(h.take("routine/event") == ["ended bed"])
    }

    @Test func aStartMissedWhileDownResumesIfTheWindowIsOpen() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("routine/add", Self.bedtime)
        h.restart(at: "2026-11-22T01:00:00+01:00")
        #expect(h.take("routine/event") == ["resumed bed"])
        #expect(h.retained("routines")?.arrayValue?.first?["ends_at"] == "2026-11-22T06:45:00+01:00")
        // Down through the whole window: nothing plays, the next night is planned.
        var late = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        late.ok("routine/add", Self.bedtime)
        late.restart(at: "2026-11-22T08:00:00+01:00")
        #expect(late.take("routine/event") == [])
        #expect(late.noise["playing"] == false)
        #expect(late.retained("routines")?.arrayValue?.first?["next_start"] == "2026-11-22T22:30:00+01:00")
    }

    @Test func aStoppedRoutineDoesNotResumeAfterARestart() {
        var h = atBedtime()
        h.ok("routine/stop")
        h.run(until: "2026-11-21T23:00:00+01:00")
        _ = h.take("routine/event")
        h.restart(at: "2026-11-21T23:30:00+01:00")
        #expect(h.take("routine/event") == [])
        #expect(h.noise["playing"] == false)
    }

    @Test(arguments: [("routine/disable", "bed"), ("routine/update", #"{"id": "bed", "enabled": false}"#)])
    func disablingTheActiveRoutineFadesItOut(topic: String, payload: String) {
        var h = atBedtime()
        h.ok(topic, payload)
        #expect(h.retained("routines")?.arrayValue?.first?["ends_at"] == "2026-11-21T22:32:00+01:00")
        #expect(h.retained("routines")?.arrayValue?.first?["next_start"] == .null)
        h.run(until: "2026-11-21T22:32:00+01:00")
        #expect(h.take("routine/event") == ["started bed", "ended bed"])
    }

    @Test func routinesSetReplacesTheListAndIsIdempotent() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        let list = #"[{"id": "a", "start": "22:00"}, {"id": "b", "start": "13:00", "duration_minutes": 30, "repeat": "weekends"}]"#
        h.ok("routines/set", list)
        let first = h.core.routines
        h.ok("routines/set", list)
        #expect(h.core.routines == first)
        #expect(h.retained("routines")?.arrayValue?.map { $0["id"] } == ["a", "b"])
        #expect(h.refused("routines/set", #"[{"id": "a", "start": "22:00"}, {"id": "a", "start": "23:00"}]"#)?.field == "id")
        #expect(h.refused("routines/set", #"{"id": "a"}"#)?.code == .invalidJSON)
    }

    @Test func theStateFileRoundTrips() {
        var h = atBedtime()
        h.ok("routine/add", #"{"id": "nap", "start": "14:00", "duration_minutes": 20, "repeat": [], "enabled": false}"#)
        let document = h.core.persistentState()[NodeCore.StateFile.routines]
        var restored = RoutinesFeature(restoring: document)
        restored.justRestored = false
        var original = h.core.routines
        original.justRestored = false
        #expect(restored == original)
        #expect(RoutinesFeature(restoring: JSONValue.string("x")).routines.isEmpty)
    }
}
