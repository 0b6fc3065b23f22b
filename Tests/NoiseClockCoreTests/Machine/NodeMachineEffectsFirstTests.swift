import Testing
@testable import NoiseClockCore

/// A wake that begins a ring is carried out before its state is written (`effectsBeforeWrites`),
/// and a crash before that write is a wake the restart does again.
@Suite struct NodeMachineEffectsFirstTests {
    /// 07:05 in Berlin, the minute of the alarm each test adds.
    static let fireInstant = Instant(seconds: 1_795_241_100)

    /// A connected node with an alarm at 07:05.
    static func rigWithAlarm(_ fields: String = "") -> MachineRig {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("alarm/add", #"{"id": "a", "time": "07:05", "sound": "chime"\#(fields)}"#)
        return rig
    }

    @Test func aFireGoesBeforeItsWriteAndLeavesNothingAfterIt() {
        var rig = Self.rigWithAlarm()
        rig.now = Self.fireInstant
        let plan = rig.machine.plan(.wake, now: rig.now)
        #expect(plan.effectsBeforeWrites)
        #expect(plan.writes.map(\.file) == ["alarms.json"], "the ring is still saved, after its effects")
        #expect(plan.effects.json("noiseclock/bed/alarm/fired")?["id"] == "a")
        #expect(plan.effects.scenes.first?.alarm?.sound == "chime")
        #expect(rig.machine.finishAfterEffects(plan, failure: nil).isEmpty)
        #expect(rig.machine.core.alarms.ring?.phase == .ringing)
    }

    @Test func aFireWhoseWriteFailsKeepsRingingAndOnlyLogs() {
        var rig = Self.rigWithAlarm()
        rig.now = Self.fireInstant
        let plan = rig.machine.plan(.wake, now: rig.now)
        let left = rig.machine.finishAfterEffects(plan, failure: WriteFailure(written: 0, message: "disk full"))
        #expect(left.count == 1)
        #expect(left.logs.map(\.message) == ["state not saved"])
        #expect(rig.machine.core.alarms.ring?.phase == .ringing, "a fire cannot be refused")
        // The file is written again with the next change.
        rig.advance(seconds: 1)
        #expect(rig.machine.plan(.wake, now: rig.now).writes.map(\.file) == ["alarms.json"])
    }

    @Test func aSnoozesEndAndAFinishedTimerGoFirstToo() {
        var rig = Self.rigWithAlarm()
        rig.now = Self.fireInstant
        rig.step(.wake)
        _ = rig.command("alarm/snooze", "5")
        rig.advance(seconds: 300)
        #expect(rig.machine.plan(.wake, now: rig.now).effectsBeforeWrites)

        var timer = MachineRig()
        timer.step(.connected)
        _ = timer.command("timer/start", "1")
        timer.advance(seconds: 60)
        let plan = timer.machine.plan(.wake, now: timer.now)
        #expect(plan.effectsBeforeWrites)
        #expect(plan.effects.json("noiseclock/bed/alarm/fired") != nil)
    }

    @Test func everythingElseIsWrittenFirst() {
        var rig = Self.rigWithAlarm(#", "ring_minutes": 1"#)
        // A command, even one that rings (`alarm/test`), is answered only once it is saved.
        #expect(!rig.machine.plan(rig.commandInput("alarm/test", "a"), now: rig.now).effectsBeforeWrites)
        // The minute's wake with nothing due.
        rig.now = Self.fireInstant.adding(seconds: -60)
        #expect(!rig.machine.plan(.wake, now: rig.now).effectsBeforeWrites)
        // A ring that is still ringing, and one that times out: the end of a ring is saved first.
        rig.now = Self.fireInstant
        rig.step(.wake)
        rig.advance(seconds: 2)
        #expect(!rig.machine.plan(.wake, now: rig.now).effectsBeforeWrites)
        rig.now = Self.fireInstant.adding(seconds: 60)
        let timeout = rig.machine.plan(.wake, now: rig.now)
        #expect(timeout.effects.json("noiseclock/bed/alarm/event")?["event"] == "timed_out")
        #expect(!timeout.effectsBeforeWrites)
    }

    /// The crash the order allows: the fire is out, its write is not on disk. The state files
    /// hold what they held before the wake; a node restarted from them rings the alarm again
    /// (while it is within `ring_minutes`), and reports it `missed` once past them.
    @Test func aCrashBeforeTheFiresWriteRingsAgainAfterTheRestart() {
        var rig = Self.rigWithAlarm()
        var documents: [String: JSONValue] = [:]
        for write in rig.written { documents[write.file] = write.document }
        rig.now = Self.fireInstant
        #expect(rig.step(.wake).json("noiseclock/bed/alarm/fired")?["id"] == "a")

        var restarted = MachineRig(persisted: documents)
        restarted.now = Self.fireInstant.adding(seconds: 20)
        // The first input catches up with the time (`connected` here; the wake the timer was armed for at once otherwise).
        let again = restarted.step(.connected) + restarted.step(.wake)
        #expect(again.json("noiseclock/bed/alarm/fired")?["id"] == "a")
        #expect(restarted.machine.core.alarms.ring?.phase == .ringing)
        #expect(restarted.machine.lastScene?.alarm?.sound == "chime")

        var late = MachineRig(persisted: documents)
        late.now = Self.fireInstant.adding(seconds: 3600)
        let missed = late.step(.connected) + late.step(.wake)
        #expect(missed.published("noiseclock/bed/alarm/fired").isEmpty)
        #expect(missed.json("noiseclock/bed/alarm/event")?["event"] == "missed")
        #expect(late.machine.core.alarms.ring == nil)
    }
}

extension MachineRig {
    func commandInput(_ suffix: String, _ payload: String) -> NodeInput {
        .message(InboundMessage(topic: "noiseclock/bed/\(suffix)", payload: Array(payload.utf8), retain: false))
    }
}
