@testable import NoiseClockCore
import Testing

/// Readiness as the machine decides it: when a check goes out (`checkReadiness`), what the
/// answer makes of `~/alarm` `ready`, and when `at_risk` / `ready` events are published.
@Suite struct NodeMachineReadinessTests {
    static func probes(_ effects: [NodeEffect]) -> [ReadinessProbe] {
        effects.compactMap { if case .checkReadiness(let probe) = $0 { probe } else { nil } }
    }

    static func events(_ effects: [NodeEffect]) -> [JSONValue] {
        effects.published("noiseclock/bed/alarm/event").compactMap { try? JSONParser().parse($0.payload) }
    }

    static let fine = ReadinessReport(clockSynced: true)

    /// Connected, first check answered `fine`.
    static func connected() -> MachineRig {
        var rig = MachineRig()
        let effects = rig.step(.connected)
        #expect(probes(effects) == [ReadinessProbe(sound: nil)], "the first input checks at once")
        rig.step(.readiness(fine))
        return rig
    }

    @Test func aNewNextAlarmIsCheckedWithItsSound() {
        var rig = Self.connected()
        #expect(rig.machine.core.alarms.readiness?.ok == true)
        let effects = rig.command("alarm/add", #"{"id": "w", "time": "07:30", "sound": "chime"}"#)
        #expect(Self.probes(effects) == [ReadinessProbe(sound: "chime")])
        // One at a time: another change waits for the answer.
        #expect(Self.probes(rig.command("alarm/add", #"{"id": "v", "time": "07:20", "sound": "none"}"#)).isEmpty)
        // The answer finds the next alarm changed meanwhile: checked again, without a sound.
        #expect(Self.probes(rig.step(.readiness(Self.fine))) == [ReadinessProbe(sound: nil)])
    }

    @Test func aProblemIsAnEventOnceAndItsFixIsReady() {
        var rig = Self.connected()
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:30", "sound": "chime"}"#)
        var effects = rig.step(.readiness(ReadinessReport(deviceError: "cannot open nc: No such device", clockSynced: true)))
        var events = Self.events(effects)
        #expect(events.map { $0["event"] } == ["at_risk"])
        #expect(events.first?["problems"]?.arrayValue?.first?["code"] == "audio_unavailable")
        #expect(events.first?["id"] == "w")
        let state = try! JSONParser().parse(effects.published("noiseclock/bed/alarm").last!.payload)
        #expect(state["ready"]?["ok"] == false)
        #expect(state["ready"]?["problems"]?.arrayValue?.first?["code"] == "audio_unavailable")
        // The same problem again: no new event. A second one: at_risk with both.
        effects = rig.command("alarm/check", "")
        #expect(Self.probes(effects) == [ReadinessProbe(sound: "chime")])
        #expect(effects.published("noiseclock/bed/response").isEmpty, "answered with the check's result, not now")
        effects = rig.step(.readiness(ReadinessReport(deviceError: "cannot open nc: No such device", clockSynced: true)))
        #expect(Self.events(effects).isEmpty)
        let response = effects.json("noiseclock/bed/response")
        #expect(response?["command"] == "alarm/check")
        #expect(response?["result"]?["ok"] == false)
        _ = rig.command("alarm/check", "")
        effects = rig.step(.readiness(ReadinessReport(deviceError: "gone", soundError: "broken", clockSynced: false)))
        events = Self.events(effects)
        #expect(events.map { $0["event"] } == ["at_risk"])
        #expect(events.first?["problems"]?.arrayValue?.map { $0["code"] } == ["audio_unavailable", "sound_unplayable", "clock_not_synced"])
        // Fixed: `ready`, once.
        _ = rig.command("alarm/check", "")
        effects = rig.step(.readiness(Self.fine))
        #expect(Self.events(effects).map { $0["event"] } == ["ready"])
        #expect(effects.json("noiseclock/bed/response")?["result"]?["ok"] == true)
        _ = rig.command("alarm/check", "")
        #expect(Self.events(rig.step(.readiness(Self.fine))).isEmpty)
    }

    @Test func checkTakesAnEmptyPayloadOnly() {
        var rig = Self.connected()
        let effects = rig.command("alarm/check", #"{"now": true}"#)
        #expect(effects.json("noiseclock/bed/response")?["ok"] == false)
        #expect(Self.probes(effects).isEmpty)
    }

    @Test func checkedEveryQuarterHourWithinTwelveHoursAndTenMinutesBefore() {
        var rig = Self.connected()  // 07:04:30 local
        _ = rig.command("alarm/add", #"{"id": "w", "time": "09:00", "sound": "chime"}"#)
        rig.step(.readiness(Self.fine))
        let checked = rig.now
        #expect(rig.machine.nextDeadline(now: rig.now) <= checked.adding(seconds: 15 * 60))
        rig.advance(seconds: 15 * 60 - 1)
        #expect(Self.probes(rig.step(.wake)).isEmpty)
        rig.advance(seconds: 1)
        #expect(Self.probes(rig.step(.wake)).count == 1)
        rig.step(.readiness(Self.fine))
    }

    @Test func tenMinutesBeforeTheAlarmWhateverTheQuarter() {
        let at = Instant(seconds: 100_000)
        let target = ReadinessSchedule.Target(alarmID: "w", at: at)
        var schedule = ReadinessSchedule()
        schedule.checkedFor = .some(target)
        schedule.lastCheck = at.adding(seconds: -11 * 60)
        #expect(schedule.deadline(target: target) == at.adding(seconds: -10 * 60))
        #expect(!schedule.isDue(target: target, now: at.adding(seconds: -10 * 60 - 1)))
        #expect(schedule.isDue(target: target, now: at.adding(seconds: -10 * 60)))
        schedule.lastCheck = at.adding(seconds: -10 * 60)
        #expect(!schedule.isDue(target: target, now: at.adding(seconds: -60)), "checked ten minutes before: not again")
        #expect(schedule.deadline(target: target) == nil)
        // Another alarm: due at once; none: due once, then never by time.
        #expect(schedule.isDue(target: ReadinessSchedule.Target(alarmID: "v", at: at), now: at))
        schedule.checkedFor = .some(nil)
        #expect(!schedule.isDue(target: nil, now: at.adding(seconds: 86_400)))
    }

    @Test func notWhileAnAlarmRingsButOnceItEnds() {
        var rig = Self.connected()  // 07:04:30 local
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "chime", "repeat": "daily"}"#)
        rig.step(.readiness(Self.fine))
        rig.advance(seconds: 30)
        let fire = rig.step(.wake)
        #expect(rig.machine.core.alarms.ring != nil)
        #expect(Self.probes(fire).isEmpty, "the fire changed the next alarm, but the ring comes first")
        #expect(Self.probes(rig.command("alarm/dismiss", "")) == [ReadinessProbe(sound: "chime")])
    }

    @Test func aShakerThatDidNotConfirmIsAProblemUntilItDoes() {
        var core = MachineRig().machine.core
        var outbox: [Publication] = []
        core.devices.shaker.lastStartConfirmed = false
        core.readinessReported(Self.fine, now: Instant(seconds: 100), outbox: &outbox)
        #expect(core.alarms.readiness?.problems.map(\.code) == [.shakerUnconfirmed])
        core.devices.shaker.lastStartConfirmed = true
        core.readinessReported(Self.fine, now: Instant(seconds: 200), outbox: &outbox)
        #expect(core.alarms.readiness?.ok == true)
    }

    @Test func aLampThatDidNotAnswerWithinFiveSecondsIsAProblemUntilItAnswers() {
        var light = Lamp(device: DeviceEndpoint(topic: "zigbee2mqtt/lamp", bridge: .zigbee2mqtt))
        let sent = Instant(seconds: 1000)
        var commands: [Publication] = []
        light.show(LightLevel(on: true, brightness: 40), transition: 0, now: sent, outbox: &commands)
        #expect(light.answerBy == sent.adding(milliseconds: 5000))
        #expect(commands.compactMap(\.deviceCommand).map(\.topic) == ["zigbee2mqtt/lamp/set"])
        light.confirmation.expire(now: sent.adding(milliseconds: 4999))
        #expect(light.lastCommandAnswered == nil, "not yet 5 s")
        light.confirmation.expire(now: sent.adding(milliseconds: 5000))
        #expect(light.lastCommandAnswered == false)
        #expect(light.answerBy == nil)
        light.reported(power: true)
        #expect(light.lastCommandAnswered == true)

        var core = MachineRig().machine.core
        var outbox: [Publication] = []
        core.devices.lamp = light
        core.devices.lamp.lastCommandAnswered = false
        core.readinessReported(Self.fine, now: Instant(seconds: 100), outbox: &outbox)
        #expect(core.alarms.readiness?.problems.map(\.code) == [.lightUnconfirmed])
        core.devices.lamp.reported(power: false)
        core.readinessReported(Self.fine, now: Instant(seconds: 200), outbox: &outbox)
        #expect(core.alarms.readiness?.ok == true, "any word from the lamp is an answer")
    }

    @Test func farAlarmsAreNotWatched() {
        var rig = Self.connected()
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:00", "sound": "chime"}"#)  // tomorrow, ~24 h away
        rig.step(.readiness(Self.fine))
        rig.advance(seconds: 3600)
        #expect(Self.probes(rig.step(.wake)).isEmpty)
    }
}
