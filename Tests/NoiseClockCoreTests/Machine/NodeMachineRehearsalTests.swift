import Testing
@testable import NoiseClockCore

/// The armed wake planned ahead and thrown away: it says whether that wake begins a ring, and
/// changes nothing.
@Suite struct NodeMachineRehearsalTests {
    @Test func theArmedFireIsRehearsedWithoutChangingAnything() {
        var rig = MachineRig()
        rig.step(.connected)
        #expect(!rig.machine.rehearseArmedWake(), "the next minute's wake rings nothing")
        _ = rig.command("alarm/add", #"{"id": "a", "time": "07:05", "sound": "chime"}"#)
        // Armed for 07:05 (Berlin), the alarm's minute: its wake begins a ring.
        rig.now = Instant(seconds: 1_795_241_100).adding(seconds: -60)
        rig.step(.wake)
        let written = rig.written.count
        let before = rig.machine.core.persistentState()
        #expect(rig.machine.rehearseArmedWake())
        #expect(rig.machine.core.alarms.ring == nil)
        #expect(rig.machine.core.persistentState() == before)
        #expect(rig.written.count == written)
        // The real wake still fires, once.
        rig.now = Instant(seconds: 1_795_241_100)
        #expect(rig.step(.wake).json("noiseclock/bed/alarm/fired")?["id"] == "a")
        #expect(!rig.machine.rehearseArmedWake(), "the ring's own end is not a ring")
    }
}
