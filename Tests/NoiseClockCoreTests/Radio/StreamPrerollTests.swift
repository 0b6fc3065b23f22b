@testable import NoiseClockCore
import Testing

/// The core's half of issue 29's preroll and sleep radio, on an injected clock: an alarm on a
/// station puts the station in the scene `stream.preroll_seconds` (30) before its ring, the wake
/// timer armed for that instant; after a snooze again before the snooze ends; and a station
/// playing as noise names its fallback noise, `~/noise` saying `error` while the engine reports
/// it down.
@Suite struct StreamPrerollTests {
    /// A node online (07:04:30 local), its sound confirmed, with the station `jazz`.
    static func rigWithStation() -> MachineRig {
        var rig = MachineRig()
        rig.step(.connected)
        rig.step(.audio(NodeMachineFailsafeTests.ok))
        _ = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz"}"#)
        return rig
    }

    static func rig(alarmAt time: String) -> MachineRig {
        var rig = rigWithStation()
        _ = rig.command("alarm/add", #"{"id": "w", "time": "\#(time)", "sound": "radio:jazz", "snooze_minutes": 5}"#)
        return rig
    }

    @Test func theStationIsConnectedThirtySecondsBeforeTheRing() throws {
        var rig = Self.rig(alarmAt: "07:10")
        let ring = rig.now.adding(seconds: 330)
        #expect(rig.machine.core.audioScene(now: rig.now).preroll == nil, "not 5 min ahead")
        #expect(rig.machine.core.prerollDeadline(now: rig.now) == ring.adding(seconds: -30))
        rig.now = ring.adding(seconds: -31)
        let before = rig.step(.wake)
        #expect(before.scenes.last?.preroll == nil)
        #expect(before.arms.last == ring.adding(seconds: -30), "the wake timer armed for the preroll (before the next minute's ~/time)")
        rig.now = ring.adding(seconds: -30)
        let scene = try #require(rig.step(.wake).scenes.last)
        #expect(scene.preroll == AudioScene.Preroll(sound: "radio:jazz", at: ring))
        #expect(scene.stations["radio:jazz"] == "http://radio.example:8000/jazz", "the engine is told where to connect")
        #expect(scene.alarm == nil)
        // The ring: the alarm's voice has the station, the preroll is over.
        rig.now = ring
        let ringing = try #require(rig.step(.wake).scenes.last)
        #expect(ringing.alarm?.sound == "radio:jazz" && ringing.preroll == nil)
    }

    @Test func aSnoozedRingIsConnectedAgainBeforeTheSnoozeEnds() throws {
        var rig = Self.rig(alarmAt: "07:05")
        rig.advance(seconds: 30)
        rig.step(.wake)
        #expect(rig.machine.core.alarms.ring?.phase == .ringing)
        _ = rig.command("alarm/snooze", "")
        let end = rig.now.adding(seconds: 300)
        #expect(rig.machine.core.audioScene(now: rig.now).preroll == nil)
        #expect(rig.machine.core.prerollDeadline(now: rig.now) == end.adding(seconds: -30))
        rig.now = end.adding(seconds: -31)
        #expect(rig.step(.wake).arms.last == end.adding(seconds: -30), "the wake timer armed for it (before the next minute's ~/time)")
        rig.now = end.adding(seconds: -30)
        #expect(rig.step(.wake).scenes.last?.preroll == AudioScene.Preroll(sound: "radio:jazz", at: end))
        rig.now = end
        let ringing = try #require(rig.step(.wake).scenes.last)
        #expect(ringing.alarm?.sound == "radio:jazz" && !(ringing.alarm?.streamFallback ?? true) && ringing.preroll == nil)
    }

    @Test func aTimerEndingOnAStationIsConnectedBeforeItsEnd() throws {
        var rig = Self.rigWithStation()
        _ = rig.command("timer/start", #"{"seconds": 120, "sound": "radio:jazz"}"#)
        let end = rig.now.adding(seconds: 120)
        #expect(rig.machine.core.audioScene(now: rig.now).preroll == nil)
        #expect(rig.machine.core.prerollDeadline(now: rig.now) == end.adding(seconds: -30))
        rig.now = end.adding(seconds: -31)
        #expect(rig.step(.wake).arms.contains(end.adding(seconds: -30)), "the wake timer armed for the preroll")
        rig.now = end.adding(seconds: -30)
        let scene = try #require(rig.step(.wake).scenes.last)
        #expect(scene.preroll == AudioScene.Preroll(sound: "radio:jazz", at: end))
        #expect(scene.stations["radio:jazz"] == "http://radio.example:8000/jazz")
        rig.now = end
        let ringing = try #require(rig.step(.wake).scenes.last)
        #expect(ringing.alarm?.sound == "radio:jazz" && ringing.preroll == nil, "the timer's ring takes the station over")
    }

    @Test func aTimerShorterThanThePrerollIsConnectedAtItsStart() {
        var rig = Self.rigWithStation()
        let short = rig.command("timer/start", #"{"seconds": 10, "sound": "radio:jazz"}"#)
        #expect(short.scenes.last?.preroll == AudioScene.Preroll(sound: "radio:jazz", at: rig.now.adding(seconds: 10)), "\(short.scenes)")
        let chime = rig.command("timer/start", #"{"seconds": 10, "sound": "chime"}"#)
        #expect(chime.scenes.allSatisfy { $0.preroll?.sound != "chime" }, "a timer on another sound has none")
    }

    @Test func noPrerollForAnAlarmOnAnotherSound() {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "chime"}"#)
        #expect(rig.machine.core.audioScene(now: rig.now).preroll == nil)
        #expect(rig.machine.core.prerollDeadline(now: rig.now.adding(seconds: -600)) == nil)
    }

    @Test func aSleepRadioNamesItsFallbackAndNoiseSaysWhileItIsDown() throws {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz"}"#)
        _ = rig.command("noise/set", #"{"sound": "radio:jazz", "playing": true}"#)
        #expect(rig.machine.core.audioScene(now: rig.now).noise?.stationFallback == "brown")
        let down = try #require(rig.step(.stationOutage(StationOutage(sound: "radio:jazz", cause: "refused", fallback: "brown")))
            .json("noiseclock/bed/noise"))
        #expect(down["error"] == "station \"jazz\" is down (refused); playing brown until it returns", "\(down.serialized)")
        #expect(down["sound"] == "radio:jazz" && down["playing"] == true, "the station stays the noise: the engine covers it")
        // A volume change is not the station coming back.
        let louder = rig.command("noise/volume/set", "50").json("noiseclock/bed/noise")
        #expect(louder?["error"] == down["error"])
        let back = try #require(rig.step(.stationOutage(StationOutage(sound: "radio:jazz", cause: nil))).json("noiseclock/bed/noise"))
        #expect(back["error"] == .null)
        // Another sound's outage is not the noise's; brown has no fallback.
        let other = rig.step(.stationOutage(StationOutage(sound: "radio:rock", cause: "dns"))).json("noiseclock/bed/noise")
        #expect(other == nil || other?["error"] == .null)
        _ = rig.command("noise/set", #"{"sound": "brown"}"#)
        #expect(rig.machine.core.audioScene(now: rig.now).noise?.stationFallback == nil)
    }
}
