import Testing
@testable import NoiseClockCore

/// The sunrise and the shaker as the core decides them, on a clock the test moves: every command
/// a device would get, in its bridge's words.
@Suite struct SunriseCoreTests {
    static let lamp = DeviceSettings(light: DeviceEndpoint(topic: "zigbee2mqtt/lamp", bridge: .zigbee2mqtt),
                                     shaker: DeviceEndpoint(topic: "zigbee2mqtt/plug", bridge: .zigbee2mqtt))

    /// Runs deadline by deadline to `iso`, gathering (instant, command) pairs.
    static func run(_ h: inout ProgrammeHarness, until iso: String, into sent: inout [(Instant, DeviceCommand)]) {
        let limit = instant(iso)
        while case let deadline = h.core.nextDeadline(after: h.now), deadline <= limit {
            h.advance(to: max(deadline, h.now))
            sent += h.takeDeviceCommands().map { (h.now, $0) }
        }
        h.advance(to: limit)
        sent += h.takeDeviceCommands().map { (h.now, $0) }
    }

    static func fields(_ command: DeviceCommand) -> JSONValue { (try? JSONParser().parse(command.payload)) ?? .null }

    @Test func theCurveRisesInEqualStepsToTheEyeFromWarmToNeutral() {
        #expect(SunriseCurve.brightness(progress: 0) == 1)
        #expect(SunriseCurve.brightness(progress: 1) == 100)
        #expect(SunriseCurve.kelvin(progress: 0) == 2200)
        #expect(SunriseCurve.kelvin(progress: 1) == 4000)
        // Lightness 54.5 (halfway from L* 9 to 100) is 22 % luminance: a perceptual curve, not a line.
        #expect(SunriseCurve.brightness(progress: 0.5) == 22)
        var last = (0, 0)
        for step in 0...400 {
            let p = Double(step) / 400
            let now = (SunriseCurve.brightness(progress: p), SunriseCurve.kelvin(progress: p))
            #expect(now.0 >= last.0 && now.1 >= last.1, "at \(p)")
            last = now
        }
    }

    @Test func aTenMinuteSunriseIs40GlidingCommandsEndingAtFullOnTheRing() throws {
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "light_minutes": 10}"#)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T07:00:30+01:00", into: &sent)
        let lamp = sent.filter { $0.1.topic == "zigbee2mqtt/lamp/set" }
        #expect(lamp.count == 40)
        #expect(lamp.first?.0 == instant("2026-11-23T06:50:00+01:00"))
        #expect(Self.fields(lamp[0].1) == ["state": "ON", "brightness": 3, "color_temp": 455, "transition": 0])
        for (a, b) in zip(lamp, lamp.dropFirst()) {
            #expect(b.0.milliseconds - a.0.milliseconds >= 15_000)
            #expect(Self.fields(b.1)["brightness"]!.intValue! >= Self.fields(a.1)["brightness"]!.intValue!)
            #expect(Self.fields(b.1)["color_temp"]!.intValue! <= Self.fields(a.1)["color_temp"]!.intValue!)
        }
        // The last glide ends on the ring at full.
        #expect(lamp.last?.0 == instant("2026-11-23T06:59:45+01:00"))
        #expect(Self.fields(lamp.last!.1) == ["state": "ON", "brightness": 254, "color_temp": 250, "transition": 15])
        #expect(h.retained("light") == ["state": "ON", "brightness": 100, "kelvin": 4000, "color": nil, "source": "sunrise", "confirmed": false])
        // Dismissed, the light stays on.
        h.ok("alarm/dismiss")
        #expect(h.takeDeviceCommands().filter { $0.topic.hasPrefix("zigbee2mqtt/lamp") }.isEmpty)
        #expect(h.retained("light")?["state"] == "ON")
    }

    @Test(arguments: [
        ("alarm/skip", #"{"id": "wake"}"#),
        ("alarm/delete", #"{"id": "wake"}"#),
        ("alarm/disable", #"{"id": "wake"}"#),
        ("alarm/update", #"{"id": "wake", "time": "09:00"}"#),
        ("alarms/pause", #"{"until": "2026-11-25"}"#),
        ("alarm/update", #"{"id": "wake", "skip_dates": ["2026-11-23"]}"#),
    ])
    func aChangeOfTheAlarmStopsTheSunriseWithAFiveSecondFade(command: String, payload: String) {
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "repeat": "daily", "sound": "classic", "light_minutes": 10}"#)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T06:55:00+01:00", into: &sent)
        #expect(sent.count == 21)
        h.ok(command, payload)
        #expect(h.core.light.sunrise == nil)
        let after = h.takeDeviceCommands()
        #expect(after.map(Self.fields) == [["state": "OFF", "transition": 5]])
        #expect(h.retained("light")?["state"] == "OFF")
        sent = []
        Self.run(&h, until: "2026-11-23T07:05:00+01:00", into: &sent)
        #expect(sent.isEmpty)
    }

    @Test func aSecondAlarmsSunriseDoesNotDimTheFirstOnesFullLight() {
        var h = ProgrammeHarness(now: "2026-11-23T06:40:00+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "first", "time": "06:55", "sound": "classic", "light_minutes": 10}"#)
        h.ok("alarm/add", #"{"id": "second", "time": "07:00", "sound": "classic", "light_minutes": 10}"#)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T07:00:05+01:00", into: &sent)
        let brightness = sent.compactMap { Self.fields($0.1)["brightness"]?.intValue }
        #expect(brightness == brightness.sorted(), "never dimmer: \(brightness)")
        #expect(brightness.last == 254)
        #expect(h.retained("light")?["brightness"] == 100)
    }

    @Test func snoozeKeepsTheLightOn() {
        var h = ProgrammeHarness(now: "2026-11-23T06:58:00+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "light_minutes": 10}"#)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T07:00:05+01:00", into: &sent)
        h.ok("alarm/snooze")
        Self.run(&h, until: "2026-11-23T07:20:00+01:00", into: &sent)
        #expect(!sent.contains { Self.fields($0.1)["state"] == "OFF" })
        #expect(h.retained("light")?["brightness"] == 100)
    }

    @Test func aRestartInsideTheWindowStartsAtTheBrightnessItShouldHaveReached() {
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "light_minutes": 10}"#)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T06:54:00+01:00", into: &sent)
        h.restart(at: "2026-11-23T06:55:00+01:00")
        let first = h.takeDeviceCommands()
        // Halfway: 22 % of 254, at once.
        #expect(first.map(Self.fields) == [["state": "ON", "brightness": 56, "color_temp": 352, "transition": 0]])
        sent = []
        Self.run(&h, until: "2026-11-23T07:00:00+01:00", into: &sent)
        #expect(sent.first?.0 == instant("2026-11-23T06:55:15+01:00"))
        #expect(sent.last.map { Self.fields($0.1)["brightness"] } == 254)
        #expect(sent.count == 19)
    }

    @Test func aLateOrJumpingClockKeepsFifteenSecondsAndEndsOnTheRing() {
        var h = ProgrammeHarness(now: "2026-11-23T06:49:59+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "light_minutes": 10}"#)
        _ = h.takeDeviceCommands()
        var sent: [(Instant, DeviceCommand)] = []
        var at = instant("2026-11-23T06:49:59+01:00")
        while at <= instant("2026-11-23T07:00:10+01:00") {
            h.advance(to: at)
            sent += h.takeDeviceCommands().map { (at, $0) }
            at = at.adding(milliseconds: 7_500)
        }
        #expect(sent.count <= 41 && sent.count >= 39)
        for (a, b) in zip(sent, sent.dropFirst()) { #expect(b.0.milliseconds - a.0.milliseconds >= 15_000) }
        let last = sent.last!
        #expect(Self.fields(last.1)["brightness"] == 254)
        let arrives = last.0.adding(seconds: Int64(Self.fields(last.1)["transition"]!.intValue!))
        #expect(abs(arrives.milliseconds - instant("2026-11-23T07:00:00+01:00").milliseconds) <= 1000)
    }

    @Test func tasmotaGetsBacklogsInItsOwnUnits() {
        let bulb = DeviceEndpoint(topic: "bedroom_bulb", bridge: .tasmota)
        #expect(Lamp.commands(LightLevel(on: true, brightness: 40, kelvin: 2700), transition: 15, to: bulb)
            == [DeviceCommand(topic: "cmnd/bedroom_bulb/Backlog", payload: "Fade 1; Speed 30; Dimmer 40; CT 370")])
        #expect(Lamp.commands(LightLevel(on: true, brightness: 5, color: RGBColor(hex: "#FF2000")), transition: 0, to: bulb)
            == [DeviceCommand(topic: "cmnd/bedroom_bulb/Backlog", payload: "Fade 1; Speed 1; Dimmer 5; Color FF2000")])
        #expect(Lamp.commands(.off, transition: 5, to: bulb)
            == [DeviceCommand(topic: "cmnd/bedroom_bulb/Backlog", payload: "Fade 1; Speed 10; POWER OFF")])
        // docs/bedroom.md's example.
        #expect(Lamp.commands(LightLevel(on: true, brightness: 30, kelvin: 2700), transition: 2, to: bulb)
            == [DeviceCommand(topic: "cmnd/bedroom_bulb/Backlog", payload: "Fade 1; Speed 4; Dimmer 30; CT 370")])
        #expect(bulb.powerCommand(true) == DeviceCommand(topic: "cmnd/bedroom_bulb/POWER", payload: "ON"))
        #expect(bulb.reportedPower(topic: "stat/bedroom_bulb/RESULT", payload: Array(#"{"POWER":"ON","Dimmer":40}"#.utf8)) == true)
        #expect(bulb.reportedPower(topic: "stat/bedroom_bulb/POWER", payload: Array("OFF".utf8)) == false)
        #expect(bulb.reportedPower(topic: "stat/bedroom_bulb/RESULT", payload: Array(#"{"Dimmer":40}"#.utf8)) == nil)
        #expect(bulb.reportedPower(topic: "stat/other/POWER", payload: Array("ON".utf8)) == nil)
    }

    @Test func theLampsReportConfirmsTheLight() {
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: Self.lamp)
        h.ok("light/set", #"{"brightness": 30, "kelvin": 2700, "transition": 2}"#)
        #expect(h.takeDeviceCommands().map(Self.fields) == [["state": "ON", "brightness": 76, "color_temp": 370, "transition": 2]])
        #expect(h.retained("light")?["confirmed"] == false)
        _ = h.core.deviceReported(topic: "zigbee2mqtt/lamp", payload: Array(#"{"state":"ON","brightness":76}"#.utf8), now: h.now, outbox: &h.outbox)
        #expect(h.retained("light") == ["state": "ON", "brightness": 30, "kelvin": 2700, "color": nil, "source": "command", "confirmed": true])
    }

    @Test(arguments: [
        (#"{"brightness": 101}"#, "brightness"), (#"{"kelvin": 20000}"#, "kelvin"), (#"{"color": "red"}"#, "color"),
        (##"{"kelvin": 3000, "color": "#FF0000"}"##, "color"), (#"{"transition": -1}"#, "transition"), ("DIM", "state"),
        (#"{"state": "ON", "brightness": 0}"#, "brightness"), (#"{"hue": 3}"#, "hue"),
    ])
    func badLightCommandsChangeNothing(payload: String, field: String) {
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: Self.lamp)
        let before = h.retained("light")
        #expect(h.refused("light/set", payload)?.field == field)
        #expect(h.retained("light") == before)
        #expect(h.takeDeviceCommands().isEmpty)
    }

    @Test func aVibrateTimerRingsTheShakerToo() {
        var h = ProgrammeHarness(now: "2026-11-23T14:00:00+01:00", devices: Self.lamp)
        h.ok("timer/start", #"{"minutes": 1, "vibrate": true}"#)
        #expect(h.retained("timers")?.arrayValue?.first?["vibrate"] == true)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T14:01:00+01:00", into: &sent)
        #expect(sent.map(\.1.payload) == [#"{"state":"ON"}"#])
        h.ok("alarm/dismiss")
        #expect(h.takeDeviceCommands().map(\.payload) == [#"{"state":"OFF"}"#])
    }

    @Test func theShakerRunsWhileAVibrateAlarmRingsAndProvesIt() {
        var h = ProgrammeHarness(now: "2026-11-23T06:59:00+01:00", devices: Self.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "vibrate": true}"#)
        var sent: [(Instant, DeviceCommand)] = []
        Self.run(&h, until: "2026-11-23T07:00:00+01:00", into: &sent)
        #expect(sent.map { $0.1 } == [DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"ON"}"#)])
        _ = h.take("alarm/event")
        _ = h.core.deviceReported(topic: "zigbee2mqtt/plug", payload: Array(#"{"state":"ON"}"#.utf8), now: h.now, outbox: &h.outbox)
        #expect(h.take("alarm/event") == ["shaking wake"])
        h.ok("alarm/snooze")
        #expect(h.takeDeviceCommands() == [DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"OFF"}"#)])
        // Rings again after the snooze: on again, and this time the plug stays silent.
        sent = []
        Self.run(&h, until: "2026-11-23T07:09:10+01:00", into: &sent)
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
