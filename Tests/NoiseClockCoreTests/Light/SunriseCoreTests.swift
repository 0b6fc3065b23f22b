import Testing
@testable import NoiseClockCore

/// The sunrise as the core decides it, on a clock the test moves: every command the lamp would
/// get, in its bridge's words. (The lamp's own words: `LampTests`; the shaker: `ShakerTests`.)
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
}
