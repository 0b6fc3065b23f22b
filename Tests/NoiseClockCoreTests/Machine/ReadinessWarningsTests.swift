@testable import NoiseClockCore
import Testing

/// `at_risk` is judged per next alarm (mqtt-api v1.4, "Readiness warns about the alarm it
/// threatens"): none while there is no next alarm; an alarm added, moved, or next after a ring
/// with a problem gets one naming it (id, next), even when the problem is old.
@Suite struct ReadinessWarningsTests {
    typealias R = NodeMachineReadinessTests
    static let deaf = ReadinessReport(deviceError: "cannot open nc: No such device", clockSynced: true)

    /// A node whose sound device does not open, checked once with no alarm.
    static func deafNode() -> (MachineRig, [NodeEffect]) {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.step(.readiness(deaf))
        return (rig, effects)
    }

    @Test func noAtRiskWithoutANextAlarmThenOneNamingTheAlarmAdded() {
        var (rig, effects) = Self.deafNode()
        #expect(R.events(effects).isEmpty, "no next alarm: nothing to warn about (was at_risk with id null)")
        #expect(rig.machine.core.alarms.readiness?.ok == false, "~/alarm ready still says it")
        effects = rig.command("alarm/add", #"{"id": "w", "time": "23:30", "sound": "chime"}"#)
        #expect(R.probes(effects).count == 1, "a new next alarm is checked at once")
        let risk = R.events(rig.step(.readiness(Self.deaf)))
        #expect(risk.map { $0["event"] } == ["at_risk"])
        #expect(risk.first?["id"] == "w" && risk.first?["next"] == "2026-11-21T23:30:00+01:00")
        #expect(risk.first?["problems"]?.arrayValue?.first?["code"] == "audio_unavailable")
        // The same problem for the same alarm: said once.
        _ = rig.command("alarm/check", "")
        #expect(R.events(rig.step(.readiness(Self.deaf))).isEmpty)
    }

    @Test func anAlarmAddedBeforeOrMovedIsANewAlarmToWarnAbout() {
        var (rig, _) = Self.deafNode()
        _ = rig.command("alarm/add", #"{"id": "w", "time": "23:30", "sound": "chime"}"#)
        rig.step(.readiness(Self.deaf))
        // An earlier alarm becomes the next: warned about.
        _ = rig.command("alarm/add", #"{"id": "v", "time": "22:00", "sound": "chime"}"#)
        var risk = R.events(rig.step(.readiness(Self.deaf)))
        #expect(risk.map { $0["id"] } == ["v"])
        // Moved: a new time is a new next alarm.
        _ = rig.command("alarm/update", #"{"id": "v", "time": "21:45"}"#)
        risk = R.events(rig.step(.readiness(Self.deaf)))
        #expect(risk.map { $0["event"] } == ["at_risk"])
        #expect(risk.first?["id"] == "v" && risk.first?["next"] == "2026-11-21T21:45:00+01:00")
        // Deleted: `w` is next again, and was warned about at its own time already: not again.
        _ = rig.command("alarm/delete", #"{"id": "v"}"#)
        #expect(R.events(rig.step(.readiness(Self.deaf))).isEmpty)
    }

    @Test func theAlarmAfterARingIsWarnedAbout() {
        var (rig, _) = Self.deafNode()
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "chime", "repeat": "daily"}"#)
        #expect(R.events(rig.step(.readiness(Self.deaf))).map { $0["next"] } == ["2026-11-21T07:05:00+01:00"])
        rig.advance(seconds: 30)
        rig.step(.wake)
        let effects = rig.command("alarm/dismiss", "")
        #expect(R.probes(effects).count == 1)
        let risk = R.events(rig.step(.readiness(Self.deaf)))
        #expect(risk.map { $0["event"] } == ["at_risk"])
        #expect(risk.first?["id"] == "w" && risk.first?["next"] == "2026-11-22T07:05:00+01:00", "tomorrow's ring is a new next alarm")
    }

    @Test func readyFollowsOnlyAnAtRisk() {
        var (rig, _) = Self.deafNode()
        #expect(R.events(rig.step(.readiness(R.fine))).isEmpty, "no at_risk was said: no ready either")
        _ = rig.command("alarm/add", #"{"id": "w", "time": "23:30", "sound": "chime"}"#)
        rig.step(.readiness(Self.deaf))
        _ = rig.command("alarm/check", "")
        #expect(R.events(rig.step(.readiness(R.fine))).map { $0["event"] } == ["ready"])
        // The problem back after its ready: new again.
        _ = rig.command("alarm/check", "")
        #expect(R.events(rig.step(.readiness(Self.deaf))).map { $0["event"] } == ["at_risk"])
    }
}
