@testable import NoiseClockCore
import Testing

/// The failsafe as the machine decides it: every fire is followed by `sounding` (on the audio
/// engine's word) or `failed` (device unavailable at once, or no word within 2 s).
@Suite struct NodeMachineFailsafeTests {
    static let ok = AudioStatus(device: "default", state: .ok)
    static let gone = AudioStatus(device: "default", state: .unavailable, error: "cannot open default: No such device")

    /// A connected node with one alarm that rings at the next minute, clock just before it.
    static func ringing(status: AudioStatus, sound: String = "chime") -> (MachineRig, AlarmSoundKey, [NodeEffect]) {
        var rig = MachineRig()
        rig.step(.connected)
        rig.step(.audio(status))
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "\#(sound)"}"#)  // the rig starts at 07:04:30 local (UTC+1)
        rig.advance(seconds: 30)
        let effects = rig.step(.wake)
        return (rig, AlarmSoundKey(alarmID: "w", since: rig.now), effects)
    }

    static func events(_ effects: [NodeEffect]) -> [JSONValue] {
        effects.published("noiseclock/bed/alarm/event").compactMap { try? JSONParser().parse($0.payload) }
    }

    @Test func soundingOnlyWhenTheEngineConfirms() {
        var (rig, key, effects) = Self.ringing(status: Self.ok)
        #expect(Self.events(effects).map { $0["event"] } == ["fired"])
        let scene = try! #require(effects.scenes.last?.alarm)
        #expect(scene.key == key, "the scene names the ring the engine must confirm")
        // The watchdog is armed for 2 s after the fire.
        #expect(effects.arms.last == rig.now.adding(seconds: 2))
        rig.advance(seconds: 1)
        effects = rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: .audible(fallback: false))))
        let sounding = Self.events(effects)
        #expect(sounding.map { $0["event"] } == ["sounding"])
        #expect(sounding.first?["fallback"] == false)
        // Confirmed: no failure at the 2 s mark, and a repeated report says nothing.
        rig.advance(seconds: 2)
        #expect(Self.events(rig.step(.wake)).isEmpty)
        #expect(Self.events(rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: .audible(fallback: false))))).isEmpty)
    }

    @Test func fallbackIsReported() {
        var (rig, key, _) = Self.ringing(status: Self.ok, sound: "chime")
        let effects = rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: .audible(fallback: true))))
        #expect(Self.events(effects).first?["fallback"] == true)
    }

    @Test func aReportForAnotherRingIsIgnored() {
        var (rig, key, _) = Self.ringing(status: Self.ok)
        let stale = AlarmSoundKey(alarmID: key.alarmID, since: key.since.adding(seconds: -540))
        #expect(Self.events(rig.step(.alarmSound(AlarmSoundReport(key: stale, outcome: .audible(fallback: false))))).isEmpty)
    }

    @Test func deviceUnavailableAtFireFailsAtOnceThenSoundsWhenItReturns() {
        var (rig, key, effects) = Self.ringing(status: Self.gone)
        let events = Self.events(effects)
        #expect(events.map { $0["event"] } == ["fired", "failed"])
        #expect(events.last?["reason"] == "audio_unavailable")
        #expect(events.last?["error"]?.stringValue?.contains("No such device") == true)
        // Not failed twice: the watchdog has nothing left to say.
        rig.advance(seconds: 3)
        #expect(Self.events(rig.step(.wake)).isEmpty)
        #expect(Self.events(rig.step(.audio(Self.ok))).isEmpty)
        effects = rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: .audible(fallback: false))))
        #expect(Self.events(effects).map { $0["event"] } == ["sounding"])
        // Lost again while ringing: failed again.
        effects = rig.step(.audio(Self.gone))
        #expect(Self.events(effects).map { $0["event"] } == ["failed"])
    }

    @Test func noWordWithinTwoSecondsFails() {
        var (rig, _, _) = Self.ringing(status: Self.ok)
        rig.advance(seconds: 1)
        #expect(Self.events(rig.step(.wake)).isEmpty)
        rig.now = rig.now.adding(milliseconds: 1000)
        let events = Self.events(rig.step(.wake))
        #expect(events.map { $0["event"] } == ["failed"])
        #expect(events.first?["reason"] == "audio_unavailable")
    }

    @Test func unplayableSoundFails() {
        var (rig, key, _) = Self.ringing(status: Self.ok)
        let events = Self.events(rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: .unplayable(error: "no beep")))))
        #expect(events.map { $0["event"] } == ["failed"])
        #expect(events.first?["reason"] == "sound_unplayable")
    }

    @Test func silentAlarmExpectsNothing() {
        var (rig, _, effects) = Self.ringing(status: Self.gone, sound: "none")
        #expect(Self.events(effects).map { $0["event"] } == ["fired"])
        rig.advance(seconds: 5)
        #expect(Self.events(rig.step(.wake)).isEmpty)
    }
}

/// `~/time` carries `synced` as the clock-sync input last reported it (null until then).
@Suite struct NodeMachineClockSyncTests {
    static func nextTime(_ rig: inout MachineRig) -> JSONValue? {
        rig.advance(seconds: 60)
        return rig.step(.wake).json("noiseclock/bed/time")
    }

    @Test func timeCarriesSynced() {
        var rig = MachineRig()
        rig.step(.connected)
        #expect(Self.nextTime(&rig)?["synced"] == .null)
        let effects = rig.step(.clockSync(false))
        #expect(effects.published("noiseclock/bed/time").isEmpty, "the change waits for the next ~/time")
        #expect(Self.nextTime(&rig)?["synced"] == false)
        rig.step(.clockSync(true))
        #expect(Self.nextTime(&rig)?["synced"] == true)
        rig.step(.clockSync(nil))
        #expect(Self.nextTime(&rig)?["synced"] == .null)
    }
}
