@testable import NoiseClockCore
import Testing

/// The stream player's titles on `~/noise`: shown while the noise plays that station, never for
/// another sound; and the scene names the station's address for the engine's player.
@Suite struct StationTitleMachineTests {
    @Test func aTitleShowsOnNoiseWhileThatStationPlays() throws {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz.mp3"}"#)
        _ = rig.command("noise/set", #"{"sound": "radio:jazz", "playing": true}"#)
        #expect(rig.machine.core.audioScene(now: rig.now).stations == ["radio:jazz": "http://radio.example:8000/jazz.mp3"])
        let noise = try #require(rig.step(.stationTitle(StationTitle(sound: "radio:jazz", title: "So What"))).json("noiseclock/bed/noise"))
        #expect(noise["title"] == "So What" && noise["station"] == "jazz", "\(noise.serialized)")
        // Another station's title (a preview's, an alarm's) is not the noise's.
        let other = rig.step(.stationTitle(StationTitle(sound: "radio:rock", title: "Paranoid"))).json("noiseclock/bed/noise")
        #expect(other == nil || other?["title"] == .null)
        // Another sound: no title.
        let brown = try #require(rig.command("noise/set", #"{"sound": "brown"}"#).json("noiseclock/bed/noise"))
        #expect(brown["title"] == .null && brown["station"] == .null)
    }
}
