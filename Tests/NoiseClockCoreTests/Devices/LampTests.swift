import Testing
@testable import NoiseClockCore

/// The lamp (Devices/Lamp/Lamp.swift): its payloads in each bridge's words, and its report
/// answering the light (`~/light`'s `confirmed`).
@Suite struct LampTests {
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
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: SunriseCoreTests.lamp)
        h.ok("light/set", #"{"brightness": 30, "kelvin": 2700, "transition": 2}"#)
        #expect(h.takeDeviceCommands().map(SunriseCoreTests.fields) == [["state": "ON", "brightness": 76, "color_temp": 370, "transition": 2]])
        #expect(h.retained("light")?["confirmed"] == false)
        _ = h.core.deviceReported(topic: "zigbee2mqtt/lamp", payload: Array(#"{"state":"ON","brightness":76}"#.utf8), now: h.now, outbox: &h.outbox)
        #expect(h.retained("light") == ["state": "ON", "brightness": 30, "kelvin": 2700, "color": nil, "source": "command", "confirmed": true])
    }
}
