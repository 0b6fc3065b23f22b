@testable import NoiseClockCore
import Testing

/// Safe mode as the machine decides it (mqtt-api v1.4): no readiness probe goes out and every
/// check names `safe_mode`, an alarm's `sounding` says `"fallback": true, "reason": "safe_mode"`,
/// stations leave the catalog, and `safe_mode/exit` is answered with its `request_id` before the
/// restart (and changes nothing on a node not in safe mode).
@Suite struct SafeModeMachineTests {
    static let status = SafeModeStatus(since: Instant(seconds: 1_795_241_000), crashedStarts: 2, lastError: "SIGILL (signal 4): a trap")

    static func safeRig() -> MachineRig {
        var rig = MachineRig()
        rig.machine.core.settings.safeMode = status
        return rig
    }

    @Test func readinessIsCheckedWithoutAProbeAndNamesSafeModeForTheNextAlarm() {
        var rig = Self.safeRig()
        var effects = rig.step(.connected)
        #expect(NodeMachineReadinessTests.probes(effects).isEmpty, "every probe is off")
        #expect(rig.machine.core.alarms.readiness?.problems.map(\.code) == [.safeMode])
        #expect(NodeMachineReadinessTests.events(effects).isEmpty, "no next alarm: no at_risk")
        effects = rig.command("alarm/add", #"{"id": "w", "time": "07:30", "sound": "chime"}"#)
        #expect(NodeMachineReadinessTests.probes(effects).isEmpty)
        let risk = NodeMachineReadinessTests.events(effects)
        #expect(risk.map { $0["event"] } == ["at_risk"])
        #expect(risk.first?["id"] == "w" && risk.first?["problems"]?.arrayValue?.first?["code"] == "safe_mode")
    }

    @Test func aRingSaysSafeModeWhenItSounds() {
        var rig = Self.safeRig()
        rig.step(.connected)
        rig.step(.audio(AudioStatus(device: "default", state: .ok)))
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "chime"}"#)
        rig.advance(seconds: 30)
        rig.step(.wake)
        let key = AlarmSoundKey(alarmID: "w", since: rig.now)
        let effects = rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: .audible(fallback: false))))
        let sounding = NodeMachineFailsafeTests.events(effects)
        #expect(sounding.map { $0["event"] } == ["sounding"])
        #expect(sounding.first?["fallback"] == true && sounding.first?["reason"] == "safe_mode")
    }

    @Test func aStationRingSoundsTheToneAtOnce() {
        let since = Instant(seconds: 100)
        var session = RingSession(alarm: Alarm(id: "r", time: AlarmTime(hour: 7, minute: 0), sound: "radio:jazz"), scheduled: since, since: since,
                                  test: false)
        var alarms = AlarmsFeature()
        alarms.ring = session
        #expect(session.streamDeadline(timeoutSeconds: 30) != nil, "outside safe mode the station is waited for")
        alarms.ringWithoutStation(now: since)
        session = try! #require(alarms.ring)
        #expect(session.activeStreamFallback?.cause == "safe_mode")
        #expect(session.streamDeadline(timeoutSeconds: 30) == nil, "no station is waited for")
    }

    @Test func noStationIsTestedInSafeMode() {
        var rig = Self.safeRig()
        rig.step(.connected)
        let effects = rig.command("station/test", #"{"url": "http://127.0.0.1:9/x.m3u8", "request_id": "t"}"#)
        #expect(effects.json("noiseclock/bed/response")?["error"]?["code"] == "stream_unavailable")
        #expect(!effects.contains { if case .probeStation = $0 { true } else { false } })
    }

    @Test func exitIsAnsweredWithItsRequestIDThenRestarts() {
        var rig = Self.safeRig()
        rig.step(.connected)
        var effects = rig.command("safe_mode/exit", #"{"request_id": "bye"}"#)
        let answer = effects.json("noiseclock/bed/response")
        #expect(answer?["request_id"] == "bye" && answer?["ok"] == true && answer?["result"]?["restarting"] == true)
        let answered = effects.firstIndex { if case .publish(let message) = $0 { message.topic.hasSuffix("/response") } else { false } }
        #expect(effects.firstIndex(of: .exitSafeMode).map { answered! < $0 } == true, "the answer goes out before the restart")
        effects = rig.command("safe_mode/exit", #"{"now": true}"#)
        #expect(effects.json("noiseclock/bed/response")?["ok"] == false)
        #expect(!effects.contains(.exitSafeMode))

        var normal = MachineRig()
        normal.step(.connected)
        effects = normal.command("safe_mode/exit", "")
        #expect(effects.json("noiseclock/bed/response")?["result"]?["restarting"] == false)
        #expect(!effects.contains(.exitSafeMode), "not in safe mode: nothing to end")
    }
}
