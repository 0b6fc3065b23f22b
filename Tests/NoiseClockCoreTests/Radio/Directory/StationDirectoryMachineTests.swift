@testable import NoiseClockCore
import Testing

/// Stations from the directory in the machine (mqtt-api v1.4, "The station directory"): a
/// `directory_id` taken, shown and kept; the directory told once of a station added with one;
/// an older state file without it loads; a moved station healed at a readiness check.
@Suite struct StationDirectoryMachineTests {
    typealias R = NodeMachineReadinessTests
    static let uuid = "96062a7b-0601-11e8-ae97-52543be04c81"

    static func told(_ effects: [NodeEffect]) -> [String] {
        effects.compactMap { if case .tellDirectory(let id) = $0 { id } else { nil } }
    }

    @Test func aStationAddedWithADirectoryIDShowsItAndTellsTheDirectoryOnce() throws {
        var rig = R.connected()
        var effects = rig.command("station/add", #"{"name": "Swiss Jazz", "url": "http://a.example/jazz.mp3", "directory_id": "\#(Self.uuid)"}"#)
        #expect(effects.json("noiseclock/bed/response")?["result"]?["directory_id"] == .string(Self.uuid))
        #expect(effects.json("noiseclock/bed/stations")?.arrayValue?.first?["directory_id"] == .string(Self.uuid))
        #expect(Self.told(effects) == [Self.uuid])
        let write = try #require(rig.written.last { $0.file == NodeCore.StateFile.stations })
        #expect(write.text.contains(Self.uuid))
        // Typed by hand: no directory_id, nobody told, `~/stations` as before v1.4.
        effects = rig.command("station/add", #"{"id": "mine", "name": "Mine", "url": "http://b.example/"}"#)
        #expect(Self.told(effects).isEmpty)
        #expect(effects.json("noiseclock/bed/response")?["result"] == ["id": "mine", "name": "Mine", "url": "http://b.example/"])
        // An update changes or clears it and tells nobody.
        effects = rig.command("station/update", #"{"id": "mine", "directory_id": "a1b2"}"#)
        #expect(effects.json("noiseclock/bed/response")?["result"]?["directory_id"] == "a1b2" && Self.told(effects).isEmpty)
        effects = rig.command("station/update", #"{"id": "mine", "directory_id": null}"#)
        #expect(effects.json("noiseclock/bed/response")?["result"]?["directory_id"] == nil)
    }

    @Test(arguments: ["\"../x\"", "\"\"", "5", "\"\(String(repeating: "a", count: 65))\"", "\"a b\""])
    func aDirectoryIDThatIsNotOneIsRefusedAndChangesNothing(value: String) {
        var rig = R.connected()
        let effects = rig.command("station/add", #"{"name": "A", "url": "http://a.example/", "directory_id": \#(value)}"#)
        let error = effects.json("noiseclock/bed/response")?["error"]
        #expect(error?["code"] == "invalid_field" && error?["field"] == "directory_id", "\(String(describing: error))")
        #expect(rig.machine.core.stations.stations.isEmpty && Self.told(effects).isEmpty)
    }

    @Test func anOlderStateFileWithoutDirectoryIDsLoadsAndANewOneKeepsThem() {
        let old: JSONValue = ["version": 1, "stations": [["id": "jazz", "name": "Jazz", "url": "http://a.example/"]]]
        #expect(StationsFeature(restoring: old).stations == [Station(id: "jazz", name: "Jazz", url: "http://a.example/")])
        let new: JSONValue = ["version": 1, "stations": [
            ["id": "jazz", "name": "Jazz", "url": "http://a.example/", "directory_id": .string(Self.uuid)],
            ["id": "odd", "name": "Odd", "url": "http://b.example/", "directory_id": "../../x"],
        ]]
        let restored = StationsFeature(restoring: new)
        #expect(restored.stations.map(\.directoryID) == [Self.uuid, nil], "a broken id is dropped, not its station")
        #expect(StationsFeature(restoring: restored.persistent).stations == restored.stations)
    }

    @Test func aMovedStationIsHealedAtTheReadinessCheck() throws {
        var rig = R.connected()
        _ = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://old.example/jazz.mp3", "directory_id": "\#(Self.uuid)"}"#)
        var effects = rig.command("alarm/add", #"{"id": "v", "time": "19:00", "sound": "radio:jazz"}"#)
        #expect(R.probes(effects) == [ReadinessProbe(sound: "radio:jazz", stationURL: "http://old.example/jazz.mp3", stationID: "jazz",
                                                     directoryID: Self.uuid)])
        var report = R.fine
        report.healed = StationHeal(stationID: "jazz", from: "http://old.example/jazz.mp3", to: "http://new.example/jazz.mp3")
        effects = rig.step(.readiness(report))
        #expect(effects.json("noiseclock/bed/stations")?.arrayValue?.first?["url"] == "http://new.example/jazz.mp3")
        #expect(rig.machine.core.alarms.readiness?.ok == true)
        #expect(rig.written.last { $0.file == NodeCore.StateFile.stations }?.text.contains("new.example") == true)
        // A heal for an address the station no longer has (changed meanwhile) changes nothing.
        _ = rig.command("station/update", #"{"id": "jazz", "url": "http://mine.example/"}"#)
        report.healed = StationHeal(stationID: "jazz", from: "http://new.example/jazz.mp3", to: "http://other.example/")
        _ = rig.command("alarm/check", "")
        rig.step(.readiness(report))
        #expect(rig.machine.core.stations.station("jazz")?.url == "http://mine.example/")
        // A directory that moves a station onto this machine is not followed (stream.allow_local_addresses off).
        report.healed = StationHeal(stationID: "jazz", from: "http://mine.example/", to: "http://127.0.0.1:8080/api/state")
        _ = rig.command("alarm/check", "")
        rig.step(.readiness(report))
        #expect(rig.machine.core.stations.station("jazz")?.url == "http://mine.example/")
    }
}
