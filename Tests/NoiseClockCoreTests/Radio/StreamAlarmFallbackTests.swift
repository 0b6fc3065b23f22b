@testable import NoiseClockCore
import Testing

/// An alarm on a station cannot fail silently (v1.3, Radio; issue 29's safety core), as the machine
/// decides it on an injected clock: the station has `stream.timeout_seconds` (5) from the ring to
/// be confirmed at the speaker; after that, or at once when the player reports it lost (DNS,
/// refused, HTTP error, TLS, undecodable, silent, stalled while ringing), the ring plays the
/// fallback tone under the same wake curve, and the engine's confirmation of the tone gives
/// `sounding` with `fallback: true, reason: "stream_unavailable", cause`. A snooze tries the
/// station again. The failsafe's 2 s watchdog waits for the station's timeout, then the tone's.
@Suite struct StreamAlarmFallbackTests {
    typealias Rig = NodeMachineFailsafeTests

    /// A connected node with a station and an alarm on it ringing now (07:05 local).
    static func ringing() -> (MachineRig, AlarmSoundKey, [NodeEffect]) {
        var rig = StreamPrerollTests.rigWithStation()
        _ = rig.command("alarm/add", #"{"id": "w", "time": "07:05", "sound": "radio:jazz", "ramp_seconds": 60}"#)
        rig.advance(seconds: 30)
        let effects = rig.step(.wake)
        return (rig, AlarmSoundKey(alarmID: "w", since: rig.now), effects)
    }

    static func report(_ rig: inout MachineRig, _ key: AlarmSoundKey, _ outcome: AlarmSoundReport.Outcome) -> [NodeEffect] {
        rig.step(.alarmSound(AlarmSoundReport(key: key, outcome: outcome)))
    }

    static func advance(_ rig: inout MachineRig, milliseconds: Int64) -> [NodeEffect] {
        rig.now = rig.now.adding(milliseconds: milliseconds)
        return rig.step(.wake)
    }

    @Test func aStationHeardInTimeSoundsAsItself() throws {
        var (rig, key, effects) = Self.ringing()
        let alarm = try #require(effects.scenes.last?.alarm)
        #expect(alarm.sound == "radio:jazz" && alarm.key == key && !alarm.streamFallback)
        #expect(effects.arms.last == key.since.adding(seconds: 5), "woken at the station's timeout, not the 2 s watchdog")
        rig.advance(seconds: 0)
        let sounding = Rig.events(Self.report(&rig, key, .audible(fallback: false)))
        #expect(sounding.map { $0["event"] } == ["sounding"])
        #expect(sounding.first?["fallback"] == false && sounding.first?["reason"] == nil)
        effects = Self.advance(&rig, milliseconds: 10_000)
        #expect(Rig.events(effects).isEmpty)
        #expect(rig.machine.core.audioScene(now: rig.now).alarm?.sound == "radio:jazz")
    }

    @Test func noAudioByTheTimeoutRingsTheToneThenSaysSo() throws {
        var (rig, key, _) = Self.ringing()
        // Not before the timeout: no `failed` at the usual 2 s, the station still tried.
        var effects = Self.advance(&rig, milliseconds: 4_999)
        #expect(Rig.events(effects).isEmpty)
        #expect(rig.machine.core.audioScene(now: rig.now).alarm?.sound == "radio:jazz")
        effects = Self.advance(&rig, milliseconds: 1)
        let tone = try #require(effects.scenes.last?.alarm)
        #expect(tone.sound == "beep" && tone.streamFallback && tone.since == key.since, "the tone under the ring's own wake curve")
        #expect(tone.key != key, "a voice of its own, to be confirmed anew")
        #expect(effects.arms.last == rig.now.adding(seconds: 2), "the tone has the usual 2 s to be confirmed")
        // A late word about the station changes nothing now.
        #expect(Rig.events(Self.report(&rig, key, .audible(fallback: false))).isEmpty)
        rig.advance(seconds: 0)
        let sounding = Rig.events(Self.report(&rig, tone.key, .audible(fallback: false)))
        #expect(sounding.count == 1)
        #expect(sounding.first?["event"] == "sounding" && sounding.first?["fallback"] == true)
        #expect(sounding.first?["reason"] == "stream_unavailable" && sounding.first?["cause"] == "timeout")
        // Until dismissed.
        effects = Self.advance(&rig, milliseconds: 60_000)
        #expect(Rig.events(effects).isEmpty)
        #expect(rig.machine.core.audioScene(now: rig.now).alarm?.sound == "beep")
    }

    @Test(arguments: ["dns", "refused", "http_404", "http_503", "tls", "timeout", "no_audio", "undecodable", "silent"])
    func aFailureBeforeTheTimeoutRingsTheToneAtOnce(cause: String) throws {
        var (rig, key, _) = Self.ringing()
        rig.advance(seconds: 1)
        let effects = Self.report(&rig, key, .streamFailed(cause: cause))
        let tone = try #require(effects.scenes.last?.alarm)
        #expect(tone.sound == "beep")
        let sounding = Rig.events(Self.report(&rig, tone.key, .audible(fallback: false)))
        #expect(sounding.first?["fallback"] == true && sounding.first?["cause"] == .string(cause))
    }

    @Test func aCauseOutsideTheListIsNoAudio() {
        #expect(StreamFallback.normalised("http_200") == "http_200")
        #expect(StreamFallback.normalised("http_4044") == "no_audio")
        #expect(StreamFallback.normalised("http_") == "no_audio")
        #expect(StreamFallback.normalised("\u{0}; rm -rf") == "no_audio")
    }

    @Test func aStallWhileRingingRingsTheToneUntilDismissed() throws {
        var (rig, key, _) = Self.ringing()
        rig.advance(seconds: 0)
        _ = Self.report(&rig, key, .audible(fallback: false))
        rig.advance(seconds: 60)
        let effects = Self.report(&rig, key, .streamFailed(cause: "stalled"))
        let tone = try #require(effects.scenes.last?.alarm)
        #expect(tone.sound == "beep")
        let sounding = Rig.events(Self.report(&rig, tone.key, .audible(fallback: false)))
        #expect(sounding.first?["event"] == "sounding" && sounding.first?["cause"] == "stalled")
        // The station recovering does not take the ring back: the tone rings until dismissed.
        #expect(Rig.events(Self.report(&rig, key, .audible(fallback: false))).isEmpty)
        _ = Self.advance(&rig, milliseconds: 30_000)
        #expect(rig.machine.core.audioScene(now: rig.now).alarm?.sound == "beep")
        _ = rig.command("alarm/dismiss", "")
        #expect(rig.machine.core.audioScene(now: rig.now).alarm == nil)
    }

    @Test func aSnoozeTriesTheStationAgain() throws {
        var (rig, key, _) = Self.ringing()
        rig.advance(seconds: 1)
        _ = Self.report(&rig, key, .streamFailed(cause: "refused"))
        _ = rig.command("alarm/snooze", "")
        rig.advance(seconds: 9 * 60)
        var effects = rig.step(.wake)
        let again = try #require(effects.scenes.last?.alarm)
        #expect(again.sound == "radio:jazz" && !again.streamFallback && again.since == rig.now)
        #expect(effects.arms.last == rig.now.adding(seconds: 5))
        effects = Self.advance(&rig, milliseconds: 5_000)
        #expect(effects.scenes.last?.alarm?.sound == "beep", "and its timeout holds again")
    }

    @Test func theEngineNotMakingTheStationSaysSoAtOnce() throws {
        // No stream player (or it could not start): the engine rings its own fallback at once.
        var (rig, key, _) = Self.ringing()
        let sounding = Rig.events(Self.report(&rig, key, .audible(fallback: true)))
        #expect(sounding.first?["fallback"] == true && sounding.first?["reason"] == "stream_unavailable" && sounding.first?["cause"] == "no_audio")
        #expect(rig.machine.core.audioScene(now: rig.now).alarm?.sound == "beep")
    }

    @Test func aToneNotConfirmedFails() {
        var (rig, key, _) = Self.ringing()
        rig.advance(seconds: 1)
        _ = Self.report(&rig, key, .streamFailed(cause: "dns"))
        var effects = Self.advance(&rig, milliseconds: 1_999)
        #expect(Rig.events(effects).isEmpty)
        effects = Self.advance(&rig, milliseconds: 1)
        let failed = Rig.events(effects)
        #expect(failed.map { $0["event"] } == ["failed"] && failed.first?["reason"] == "audio_unavailable")
    }

    @Test func aTimerOnAStationFallsBackToo() throws {
        var rig = StreamPrerollTests.rigWithStation()
        _ = rig.command("timer/start", #"{"seconds": 10, "sound": "radio:jazz"}"#)
        rig.advance(seconds: 10)
        _ = rig.step(.wake)
        #expect(rig.machine.core.audioScene(now: rig.now).alarm?.sound == "radio:jazz")
        let effects = Self.advance(&rig, milliseconds: 5_000)
        #expect(effects.scenes.last?.alarm?.sound == "beep")
    }
}
