import Testing
@testable import NoiseClockCore

/// Stations on the core (v1.3, Radio): add, update, delete; `~/stations` and `~/sounds`; a
/// station is a sound (`radio:<id>`) for the noise, alarms, pre-alarms, routines and timers but
/// not in a mix; deleting one an alarm or timer rings is `in_use`; `stations.json` survives a restart.
@Suite struct StationCoreTests {
    static let jazz = #"{"name": "Radio Swiss Jazz", "url": "https://stream.srg-ssr.ch/m/rsj/mp3_128"}"#

    @Test func addDerivesTheIdAndListsTheStationTwice() throws {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        #expect(h.retained("stations") == [], "published empty before any station")
        #expect(h.retained("sounds")?["radio"] == nil, "no radio list before any station: ~/sounds unchanged")
        let added = h.ok("station/add", Self.jazz)
        #expect(added == ["id": "radio_swiss_jazz", "name": "Radio Swiss Jazz", "url": "https://stream.srg-ssr.ch/m/rsj/mp3_128"])
        #expect(h.retained("stations") == [added])
        #expect(h.retained("sounds")?["radio"] == [["id": "radio:radio_swiss_jazz", "name": "Radio Swiss Jazz", "category": "radio"]])
        // Another with the same derived id is refused; an explicit id is taken.
        #expect(h.refused("station/add", Self.jazz)?.field == "id")
        #expect(h.ok("station/add", #"{"id": "jazz2", "name": "Jazz", "url": "http://radio.example:8000/jazz.m3u"}"#)["id"] == "jazz2")
    }

    @Test(arguments: [
        (#"{"url": "http://x/a"}"#, "name"),
        (#"{"name": "A"}"#, "url"),
        (#"{"name": "", "url": "http://x/a"}"#, "name"),
        (#"{"name": "A", "url": "ftp://x/a"}"#, "url"),
        (#"{"name": "A", "url": "file:///etc/passwd"}"#, "url"),
        (#"{"name": "A", "url": "http://x/a b"}"#, "url"),
        (#"{"name": "A", "url": "http:///a"}"#, "url"),
        (#"{"name": "A", "url": 3}"#, "url"),
        (#"{"id": "Bad Id", "name": "A", "url": "http://x/a"}"#, "id"),
        (#"{"id": "radio:a", "name": "A", "url": "http://x/a"}"#, "id"),
        (#"{"id": "abcdefghijklmnopqrstuvwxyz0123456", "name": "A", "url": "http://x/a"}"#, "id"),
        (#"{"name": "A", "url": "http://x/a", "volume": 3}"#, "volume"),
        (#"{"name": "\u0007", "url": "http://x/a"}"#, "name"),
        (#"{"name": "!!!", "url": "http://x/a"}"#, "id"),
    ])
    func refusesBadStations(json: String, field: String) {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        #expect(h.refused("station/add", json)?.field == field)
        #expect(h.core.stations.stations.isEmpty)
    }

    @Test func boundsNameURLAndCount() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        let name64 = String(repeating: "é", count: 64)
        h.ok("station/add", #"{"id": "a", "name": "\#(name64)", "url": "http://x/\#(String(repeating: "a", count: 2039))"}"#)
        #expect(h.refused("station/add", #"{"id": "b", "name": "\#(name64)é", "url": "http://x/a"}"#)?.field == "name")
        #expect(h.refused("station/add", #"{"id": "b", "name": "B", "url": "http://x/\#(String(repeating: "a", count: 2040))"}"#)?.field == "url")
        for index in 1..<Station.limit { h.ok("station/add", #"{"id": "s\#(index)", "name": "S", "url": "http://x/a"}"#) }
        #expect(h.refused("station/add", #"{"id": "one_more", "name": "S", "url": "http://x/a"}"#)?.code == .limitExceeded)
    }

    @Test func updateChangesOnlyWhatItNames() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("station/add", Self.jazz)
        let updated = h.ok("station/update", #"{"id": "radio_swiss_jazz", "url": "http://radio.example:8000/jazz"}"#)
        #expect(updated == ["id": "radio_swiss_jazz", "name": "Radio Swiss Jazz", "url": "http://radio.example:8000/jazz"])
        #expect(h.refused("station/update", #"{"id": "nope", "name": "X"}"#)?.code == .notFound)
        #expect(h.refused("station/update", #"{"id": "radio_swiss_jazz", "url": "gopher://x"}"#)?.field == "url")
        #expect(h.core.stations.stations.first?.url == "http://radio.example:8000/jazz", "a refused update changes nothing")
    }

    @Test func aStationIsASoundEverywhereButInAMix() throws {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://x/jazz"}"#)
        h.ok("noise/set", #"{"playing": true, "sound": "radio:jazz"}"#)
        #expect(h.scene.noise?.sound == "radio:jazz")
        #expect(h.scene.noise?.layers == [AudioScene.Layer(sound: "radio:jazz", gain: 1)])
        #expect(h.noise["station"] == "jazz" && h.noise["title"] == .null, "~/noise names the station (its title: the player's, not yet)")
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "radio:jazz"}"#)
        h.ok("alarm/add", #"{"id": "pre", "time": "07:30", "sound": "classic", "pre_alarm_minutes": 10, "pre_alarm_sound": "radio:jazz"}"#)
        h.ok("routine/add", #"{"id": "night", "start": "22:00", "sound": "radio:jazz"}"#)
        h.ok("timer/start", #"{"minutes": 5, "sound": "radio:jazz"}"#)
        #expect(h.refused("mix/set", #"{"id": "m", "layers": [{"sound": "radio:jazz"}, {"sound": "pink"}]}"#)?.code == .unknownSound)
        #expect(h.refused("noise/set", #"{"sound": "radio:nope"}"#)?.code == .unknownSound)
        #expect(h.refused("alarm/add", #"{"time": "07:00", "sound": "radio:nope"}"#)?.code == .unknownSound)
        #expect(h.core.soundCatalog.noiseEntries.last?.id == "radio:jazz", "the noise pickers (web, Home Assistant) list it")
    }

    @Test func deletingAStationAnAlarmOrTimerRingsIsInUse() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://x/jazz"}"#)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "radio:jazz"}"#)
        h.ok("alarm/add", #"{"id": "nap", "time": "15:00", "sound": "classic", "pre_alarm_minutes": 5, "pre_alarm_sound": "radio:jazz"}"#)
        let refusal = h.refused("station/delete", "jazz")
        #expect(refusal?.code == .inUse)
        #expect(refusal?.message.contains("alarm wake") == true && refusal?.message.contains("alarm nap") == true)
        #expect(h.core.stations.station("jazz") != nil)
        h.ok("alarm/delete", "wake")
        h.ok("alarm/delete", "nap")
        h.ok("timer/start", #"{"minutes": 5, "sound": "radio:jazz"}"#)
        #expect(h.refused("station/delete", #"{"id": "jazz"}"#)?.message.contains("timer") == true)
    }

    @Test func deletingThePlayingStationPlaysBrownAndRoutinesFollow() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://x/jazz"}"#)
        h.ok("noise/set", #"{"playing": true, "sound": "radio:jazz"}"#)
        h.ok("routine/add", #"{"id": "night", "start": "22:00", "sound": "radio:jazz"}"#)
        #expect(h.ok("station/delete", "jazz")["id"] == "jazz")
        #expect(h.scene.noise?.sound == "brown")
        #expect(h.core.routines.routines.first?.sound == "brown")
        #expect(h.retained("sounds")?["radio"] == nil)
        #expect(h.refused("station/delete", "jazz")?.code == .notFound)
    }

    @Test func stationsAndTheirUseSurviveARestart() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("station/add", #"{"id": "jazz", "name": "Jazz", "url": "https://x/jazz.m3u8"}"#)
        h.ok("noise/set", #"{"playing": true, "sound": "radio:jazz"}"#)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "radio:jazz"}"#)
        #expect(h.core.persistentState()[NodeCore.StateFile.stations] == [
            "version": 1, "stations": [["id": "jazz", "name": "Jazz", "url": "https://x/jazz.m3u8"]],
        ])
        h.restart(at: "2026-11-21T20:05:00+01:00")
        #expect(h.core.stations.station("jazz")?.url == "https://x/jazz.m3u8")
        #expect(h.scene.noise?.sound == "radio:jazz")
        #expect(h.core.alarms.book.alarms.first?.sound == "radio:jazz")
    }

    @Test func restoringDropsWhatIsNotAStation() {
        let document: JSONValue = ["version": 1, "stations": [
            ["id": "ok", "name": "OK", "url": "http://x/a"], ["id": "ok", "name": "Again", "url": "http://x/b"],
            ["id": "Bad", "name": "B", "url": "http://x/a"], ["id": "f", "name": "F", "url": "file:///etc/passwd"], ["id": "n", "url": "http://x"],
        ]]
        #expect(StationsFeature(restoring: document).stations.map(\.id) == ["ok"])
        #expect(StationsFeature(restoring: ["version": 2, "stations": []]).stations.isEmpty)
    }

    @Test(arguments: [("Radio Swiss Jazz", "radio_swiss_jazz"), ("BBC Radio 4.FM", "bbc_radio_4_fm"), ("Ö1", "1"), ("—", nil),
                      (String(repeating: "ab ", count: 20), "ab_ab_ab_ab_ab_ab_ab_ab_ab_ab_ab")])
    func derivesIDs(name: String, id: String?) {
        #expect(Station.derivedID(fromName: name) == id)
    }
}
