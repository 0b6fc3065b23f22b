import Testing
@testable import NoiseClockCore

/// When the machine wakes, what it arms, and what it makes audible.
@Suite struct NodeMachineTimingTests {
    @Test func theTimerIsArmedOnlyWhenTheDeadlineMovesOrWasSpent() {
        var rig = MachineRig()
        _ = rig.machine.start(now: rig.now)
        // A command that changes no deadline re-arms nothing.
        #expect(rig.command("style/set", #"{"digit_opacity": 80}"#).arms.isEmpty)
        // Seconds on: the next deadline is the next second.
        let seconds = rig.command("style/set", #"{"show_seconds": true}"#)
        #expect(seconds.arms == [rig.now.nextBoundary(every: 1)])
        // A wake-up always re-arms, even for the same instant: the timer is spent.
        rig.now = rig.now.nextBoundary(every: 1)
        let wake = rig.step(.wake)
        #expect(wake.arms == [rig.now.adding(seconds: 1)])
    }

    @Test func aWakeAtTheMinutePublishesTheTime() {
        var rig = MachineRig()
        rig.step(.connected)
        rig.now = Instant(seconds: 1_795_241_100)
        let effects = rig.step(.wake)
        #expect(effects.json("noiseclock/bed/time")?["display"] == "07:05")
        #expect(effects.published("noiseclock/bed/time").first?.retain == false)
    }

    @Test func aClockStepIsLoggedAndReplansAtOnce() {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("alarm/add", #"{"id": "a", "time": "07:30"}"#)
        rig.now = Instant(seconds: 1_795_243_000)  // 07:36:40 local: the alarm's 07:30 passed during the jump
        let effects = rig.step(.clockChanged)
        #expect(effects.logs.map(\.message).contains("system clock changed; re-planning"))
        #expect(effects.json("noiseclock/bed/alarm/event")?["event"] == "fired")
        #expect(effects.arms.count == 1)
    }

    @Test func theSceneIsHandedOverOnlyWhenItChanges() {
        var rig = MachineRig()
        rig.step(.connected)
        let on = rig.command("noise/set", "ON")
        #expect(on.scenes.count == 1)
        #expect(on.scenes.first?.noise?.sound == "brown")
        #expect(rig.command("noise/volume/set", "40").scenes.isEmpty, "the same volume is the same scene")
        #expect(rig.command("noise/sound/set", "pink").scenes.first?.noise?.sound == "pink")
    }

    @Test func aRingingAlarmIsInTheScene() {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("alarm/add", #"{"id": "a", "time": "07:05", "sound": "chime", "volume": 70}"#)
        rig.now = Instant(seconds: 1_795_241_100)
        let effects = rig.step(.wake)
        #expect(effects.scenes.first?.alarm?.sound == "chime")
        #expect(effects.scenes.first?.alarm?.volume == 70)
        #expect(rig.written.last?.file == "alarms.json", "the ring is saved, so a restart keeps ringing")
    }
}
