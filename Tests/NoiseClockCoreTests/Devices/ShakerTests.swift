import Testing
@testable import NoiseClockCore

/// The bed shaker (Devices/Shaker/Shaker.swift), on a clock the test moves: on while a
/// `vibrate` alarm or timer rings, off on snooze and dismiss, `shaking` once its plug says so.
@Suite struct ShakerTests {
    @Test func aVibrateTimerRingsTheShakerToo() {
        var h = ProgrammeHarness(now: "2026-11-23T14:00:00+01:00", devices: SunriseCoreTests.lamp)
        h.ok("timer/start", #"{"minutes": 1, "vibrate": true}"#)
        #expect(h.retained("timers")?.arrayValue?.first?["vibrate"] == true)
        var sent: [(Instant, DeviceCommand)] = []
        SunriseCoreTests.run(&h, until: "2026-11-23T14:01:00+01:00", into: &sent)
        #expect(sent.map(\.1.payload) == [#"{"state":"ON"}"#])
        h.ok("alarm/dismiss")
        #expect(h.takeDeviceCommands().map(\.payload) == [#"{"state":"OFF"}"#])
    }

    @Test func theShakerRunsWhileAVibrateAlarmRingsAndProvesIt() {
        var h = ProgrammeHarness(now: "2026-11-23T06:59:00+01:00", devices: SunriseCoreTests.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "vibrate": true}"#)
        var sent: [(Instant, DeviceCommand)] = []
        SunriseCoreTests.run(&h, until: "2026-11-23T07:00:00+01:00", into: &sent)
        #expect(sent.map { $0.1 } == [DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"ON"}"#)])
        _ = h.take("alarm/event")
        _ = h.core.deviceReported(topic: "zigbee2mqtt/plug", payload: Array(#"{"state":"ON"}"#.utf8), now: h.now, outbox: &h.outbox)
        #expect(h.take("alarm/event") == ["shaking wake"])
        h.ok("alarm/snooze")
        #expect(h.takeDeviceCommands() == [DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"OFF"}"#)])
        // Rings again after the snooze: on again, and this time the plug stays silent.
        sent = []
        SunriseCoreTests.run(&h, until: "2026-11-23T07:09:10+01:00", into: &sent)
        #expect(sent.map { $0.1.payload } == [#"{"state":"ON"}"#])
        // (No audio engine here: the sound's own failsafe reports too, with its own reason.)
        let failed = h.bodies("alarm/event").filter { $0["event"] == "failed" && $0["reason"] == "shaker_unconfirmed" }
        #expect(failed.count == 1)
        #expect(failed.first?["at"] == "2026-11-23T07:09:05+01:00")
        #expect(h.core.audioScene(now: h.now).alarm != nil)
        h.ok("alarm/dismiss")
        #expect(h.takeDeviceCommands().map(\.payload) == [#"{"state":"OFF"}"#])
    }
}
