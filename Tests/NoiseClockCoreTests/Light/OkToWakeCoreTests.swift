import Testing
@testable import NoiseClockCore

/// Routines with `light`, `face` and `sound: "none"`: a child's "stay in bed" / "OK to wake" clock.
@Suite struct OkToWakeCoreTests {
    static let pair = [
        ##"{"id": "stay", "start": "19:30", "end": "06:59", "sound": "none", "fade_in_seconds": 0, "light": {"brightness": 5, "color": "#FF0000"}, "##
            + ##""face": {"digit_color": "#FF0000"}}"##,
        ##"{"id": "ok", "start": "07:00", "end": "07:30", "sound": "none", "fade_in_seconds": 0, "light": {"brightness": 40, "color": "#00FF00"}, "##
            + ##""face": {"digit_color": "#00FF00"}}"##,
    ]

    @Test func thePairChangesLightAndFaceAtTheirTimesAndRestoresTheStyleAfter() {
        var h = ProgrammeHarness(now: "2026-11-23T19:00:00+01:00", devices: SunriseCoreTests.lamp)
        h.ok("style/set", ##"{"digit_color": "#FFFFFF"}"##)
        for routine in Self.pair { h.ok("routine/add", routine) }
        h.run(until: "2026-11-23T19:30:00+01:00")
        #expect(h.retained("style")?["digit_color"] == "#FF0000")
        #expect(h.retained("light") == ["state": "ON", "brightness": 5, "kelvin": nil, "color": "#FF0000", "source": "routine", "confirmed": false])
        #expect(h.noise["playing"] == false, "sound none leaves the noise alone")
        _ = h.takeDeviceCommands()
        h.run(until: "2026-11-24T06:59:00+01:00")
        #expect(h.retained("style")?["digit_color"] == "#FFFFFF")
        #expect(h.retained("light")?["state"] == "OFF")
        h.run(until: "2026-11-24T07:00:00+01:00")
        #expect(h.retained("style")?["digit_color"] == "#00FF00")
        #expect(h.takeDeviceCommands().last.map { SunriseCoreTests.fields($0) }
            == ["state": "ON", "brightness": 102, "color": ["hex": "#00FF00"], "transition": 0])
        h.run(until: "2026-11-24T07:30:00+01:00")
        #expect(h.retained("style")?["digit_color"] == "#FFFFFF")
        #expect(h.retained("light")?["state"] == "OFF")
        // The face was never the user's: the state file holds the user's style.
        #expect(h.core.persistentState()[NodeCore.StateFile.style]?["style"]?["digit_color"] == "#FFFFFF")
    }

    @Test(arguments: [
        (#"{"start": "07:00", "light": {"brightness": 0}}"#, "light"), (#"{"start": "07:00", "light": {"kelvin": 3000}}"#, "light"),
        (##"{"start": "07:00", "face": {"digit_color": "green"}}"##, "face"), (#"{"start": "07:00", "face": {"nope": 1}}"#, "face"),
        (#"{"start": "07:00", "face": {}}"#, "face"),
    ])
    func badLightsAndFacesAreRefused(payload: String, field: String) {
        var h = ProgrammeHarness(now: "2026-11-23T19:00:00+01:00")
        #expect(h.refused("routine/add", payload)?.field == field)
        #expect(h.retained("routines") == [])
    }
}
