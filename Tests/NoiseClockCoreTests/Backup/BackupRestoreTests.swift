import Testing
@testable import NoiseClockCore

/// `Backup` and the machine's `restore` input: a node's backup restored on a fresh node gives it
/// the same retained state (ids included); a backup that is not whole and valid changes nothing
/// and names the entry at fault.
@Suite struct BackupRestoreTests {
    /// A node with something set in every entry of a backup.
    static func setUpNode() -> MachineRig {
        var rig = MachineRig()
        rig.step(.connected)
        let commands: [(String, String)] = [
            ("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:9/jazz.mp3"}"#),
            // A station as an alarm's sound and a timer preset's: restored with it (a new-user trial found them refused).
            ("alarm/add", #"{"id": "radio", "time": "07:15", "sound": "radio:jazz"}"#),
            ("alarm/add", #"{"id": "work", "time": "06:30", "label": "Work", "repeat": "weekdays", "sound": "chime", "volume": 40}"#),
            ("alarm/add", #"{"id": "trip", "time": "05:10", "date": "2026-12-03", "snooze_minutes": 5}"#),
            ("alarm/add", #"{"time": "09:00", "label": "Made an id", "enabled": false}"#),
            ("alarms/pause", #"{"until": "2026-11-25"}"#),
            ("routine/add", #"{"id": "bed", "label": "Bedtime", "start": "22:00", "sound": "brown"}"#),
            ("timer/presets/set", #"[{"id": "tea", "label": "Tea", "minutes": 4, "sound": "chime"}, "#
                + #"{"id": "jazz_nap", "label": "Jazz nap", "minutes": 20, "sound": "radio:jazz"}]"#),
            ("mix/set", #"{"id": "rain_mix", "name": "Rain", "layers": [{"sound": "brown", "volume": 60}, {"sound": "pink", "volume": 30}]}"#),
            ("style/set", ##"{"digit_color": "#ff8800", "show_seconds": true, "glow": 20}"##),
            ("noise/set", #"{"sound": "pink", "volume": 33}"#),
        ]
        for (suffix, payload) in commands {
            let response = rig.command(suffix, payload).json("noiseclock/bed/response")
            #expect(response?["ok"] == .bool(true), "\(suffix): \(response?.serialized ?? "no response")")
        }
        return rig
    }

    static func backup(of rig: MachineRig) -> JSONValue {
        Backup.make(documents: rig.machine.core.persistentState(), nodeID: "bed", now: rig.now, nodeVersion: "test")
    }

    static func restore(_ bytes: [UInt8], on rig: inout MachineRig, failAt: Int? = nil) -> Response? {
        let effects = rig.step(.restore(LocalRequest(id: 9, command: "restore", payload: bytes)), failAt: failAt)
        for case .reply(9, let response) in effects { return response }
        return nil
    }

    @Test func aBackupRestoredOnAFreshNodeGivesItTheSameRetainedState() throws {
        let source = Self.setUpNode()
        var fresh = MachineRig()
        fresh.step(.connected)
        let response = try #require(Self.restore(Self.backup(of: source).bytes, on: &fresh))
        #expect(response.ok, "\(response.json.serialized)")
        let expected = source.machine.core.retainedState(now: source.now)
        let restored = fresh.machine.core.retainedState(now: fresh.now)
        #expect(restored.map(\.topic) == expected.map(\.topic))
        for (got, want) in zip(restored, expected) {
            #expect(String(decoding: got.body.bytes, as: UTF8.self) == String(decoding: want.body.bytes, as: UTF8.self), "~/\(got.topic)")
        }
        // Every state file written again, whole.
        #expect(Set(fresh.written.suffix(Backup.files.count).map(\.file)) == Set(Backup.files))
        #expect(response.json["result"]?["restored"]?["alarms"] == .int(4))
        // A backup of the restored node is the same document but for its own name and moment.
        #expect(Self.backup(of: fresh) == Self.backup(of: source))
    }

    /// A backup made before radio (no `stations`) restores, with no stations.
    @Test func aBackupFromBeforeRadioRestoresWithoutStations() throws {
        var object = try #require(Self.backup(of: Self.setUpNode()).objectValue)
        object["stations"] = nil
        var fresh = MachineRig()
        fresh.step(.connected)
        _ = fresh.command("station/add", #"{"id": "old", "name": "Old", "url": "http://radio.example:9/old.mp3"}"#)
        let response = try #require(Self.restore(JSONValue.object(object).bytes, on: &fresh))
        #expect(response.ok, "\(response.json.serialized)")
        #expect(fresh.machine.core.stations.stations.isEmpty, "the restore replaces the stations with the backup's: none")
        #expect(fresh.machine.core.alarms.plans["work"] != nil)
    }

    @Test func theRestoredAlarmIsPlannedAndRings() throws {
        var fresh = MachineRig()
        fresh.step(.connected)
        _ = Self.restore(Self.backup(of: Self.setUpNode()).bytes, on: &fresh)
        let next = try #require(fresh.machine.core.alarms.plans["trip"]?.pending)
        fresh.now = next
        let effects = fresh.step(.wake)
        #expect(effects.json("noiseclock/bed/alarm")?["state"] == .string("ringing"))
    }

    /// A backup keeps the noise's sound and volume, not that it played: restored at night, on a
    /// node whose noise is off, it stays off (a backup made while it played, or one that says
    /// `"playing": true` by hand).
    @Test func aRestoreNeverStartsTheNoise() throws {
        var source = Self.setUpNode()
        _ = source.command("noise/set", #"{"playing": true, "sleep_timer_minutes": 30}"#)
        var backup = Self.backup(of: source)
        #expect(backup["noise"] == .object(JSONObject([("sound", "pink"), ("volume", 33)])))
        guard case .object(var object) = backup else { return }
        object["noise"] = .object(JSONObject([("playing", true), ("sound", "pink"), ("volume", 33)]))
        backup = .object(object)
        var fresh = MachineRig()
        fresh.step(.connected)
        let response = try #require(Self.restore(backup.bytes, on: &fresh))
        #expect(response.ok, "\(response.json.serialized)")
        let noise = try #require(fresh.machine.core.retainedState(now: fresh.now).first { $0.topic == "noise" })
        let json = try JSONParser().parse(noise.body.bytes)
        #expect(json["playing"] == .bool(false))
        #expect(json["sound"] == .string("pink"))
        #expect(json["volume"] == .int(33))
    }

    /// Each broken backup, the entry its refusal names.
    static let broken: [(String, String)] = [
        ("truncated", "backup"), ("wrong format", "format"), ("newer version", "version"), ("one bad alarm", "alarms[1].time"),
        ("alarm without id", "alarms[0].id"), ("twice the same alarm", "alarms[1].id"), ("a routine missing", "routines"),
        ("a bad mix layer", "mixes[0].layers[1].volume"), ("an unknown style field", "style.glowz"),
        ("an entry this node does not know", "podcasts"), ("settings not an object", "settings"), ("not JSON at all", "backup"),
        ("a station's url not http", "stations[0].url"), ("a station without id", "stations[0].id"),
    ]

    static func breaking(_ backup: JSONValue, _ how: String) -> [UInt8] {
        var object = backup.objectValue!
        func alarms(_ change: (inout [JSONValue]) -> Void) {
            var list = object["alarms"]!.arrayValue!
            change(&list)
            object["alarms"] = .array(list)
        }
        switch how {
        case "truncated": return Array(backup.bytes.prefix(backup.bytes.count / 2))
        case "not JSON at all": return Array("PK\u{3}\u{4} a zip file".utf8)
        case "wrong format": object["format"] = "noiseclock-export"
        case "newer version": object["version"] = 2
        case "one bad alarm": alarms { list in list[1] = .object(Self.set(list[1].objectValue!, "time", "25:99")) }
        case "alarm without id": alarms { list in list[0] = .object(Self.set(list[0].objectValue!, "id", nil)) }
        case "twice the same alarm": alarms { list in list[1] = list[0] }
        case "a routine missing": object["routines"] = nil
        case "a bad mix layer":
            object["mixes"] = [["id": "m", "name": "M", "layers": [["sound": "brown", "volume": 50], ["sound": "pink", "volume": 150]]]]
        case "an unknown style field": object["style"] = ["glowz": 3]
        case "an entry this node does not know": object["podcasts"] = []
        case "a station's url not http": object["stations"] = [["id": "jazz", "name": "Jazz", "url": "ftp://127.0.0.1/jazz.mp3"]]
        case "a station without id": object["stations"] = [["name": "Jazz", "url": "http://radio.example:9/jazz.mp3"]]
        case "settings not an object": object["settings"] = ["timezone"]
        default: Issue.record("no such case \(how)")
        }
        return JSONValue.object(object).bytes
    }

    static func set(_ object: JSONObject, _ key: String, _ value: JSONValue?) -> JSONObject {
        var copy = object
        copy[key] = value
        return copy
    }

    @Test(arguments: broken)
    func aBrokenBackupChangesNothingAndNamesTheEntry(_ how: String, _ entry: String) throws {
        let backup = Self.backup(of: Self.setUpNode())
        var target = MachineRig()
        target.step(.connected)
        _ = target.command("alarm/add", #"{"id": "mine", "time": "07:00"}"#)
        let before = target.machine.core.retainedState(now: target.now).map(\.body)
        let files = target.machine.core.persistentState()
        let writes = target.written.count
        let effects = target.step(.restore(LocalRequest(id: 9, command: "restore", payload: Self.breaking(backup, how))))
        var response: Response?
        for case .reply(9, let reply) in effects { response = reply }
        guard case .failure(let error)? = response?.outcome else { Issue.record("\(how): not refused"); return }
        #expect(error.code == .invalidField)
        #expect(error.field == entry, "\(how): \(error.message)")
        #expect(error.message.hasPrefix(entry + ": "))
        #expect(target.written.count == writes)
        #expect(effects.publications.isEmpty)
        #expect(target.machine.core.retainedState(now: target.now).map(\.body) == before)
        #expect(target.machine.core.persistentState() == files)
    }

    @Test func theWebAppsSettingsTravelWithTheBackupAndAreWrittenBack() throws {
        var source = Self.setUpNode()
        var documents = source.machine.core.persistentState()
        documents[SettingsFile.name] = SettingsFile.document(JSONObject([("timezone", "Asia/Seoul")]))
        let backup = Backup.make(documents: documents, nodeID: "bed", now: source.now, nodeVersion: "test")
        #expect(backup["settings"] == ["timezone": "Asia/Seoul"])
        let response = try #require(Self.restore(backup.bytes, on: &source))
        #expect(response.ok)
        #expect(source.written.last?.file == SettingsFile.name)
        #expect(source.written.last?.document == SettingsFile.document(JSONObject([("timezone", "Asia/Seoul")]), setupDone: true))
    }

    @Test func aBackupOfANodeThatNeverWroteAFileHoldsItsDefaults() {
        let backup = Backup.make(documents: [:], nodeID: "new", now: Instant(seconds: 0), nodeVersion: "test")
        #expect(backup["timer_presets"]?.arrayValue?.count == TimerPreset.defaults.count)
        #expect(backup["alarms"] == .array([]))
        #expect(backup["created_at"] == "1970-01-01T00:00:00+00:00")
        #expect(backup["settings"] == .object(JSONObject()))
        guard case .success = Backup.read(backup.bytes) else { Issue.record("its own default backup refused"); return }
    }

    @Test func aWriteThatFailsMidwayRefusesTheRestoreAndTheOldStateIsWrittenBackWithTheNextChange() throws {
        var target = MachineRig()
        target.step(.connected)
        _ = target.command("alarm/add", #"{"id": "mine", "time": "07:00"}"#)
        let before = target.machine.core.persistentState()
        let response = try #require(Self.restore(Self.backup(of: Self.setUpNode()).bytes, on: &target, failAt: 2))
        guard case .failure(let error) = response.outcome else { Issue.record("restore not refused"); return }
        #expect(error.code == .storageError)
        #expect(target.machine.core.persistentState() == before)
        // The two files written hold the backup: the next input writes them back.
        let rewritten = target.written.suffix(2).map(\.file)
        target.written = []
        target.advance(seconds: 1)
        target.step(.wake)
        for file in rewritten {
            #expect(target.written.last { $0.file == file }?.document == before[file], "\(file) not written back")
        }
    }

    @Test func aNewTimeZoneRePlansTheAlarmsAndSendsTheTimeAtOnce() throws {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("alarm/add", #"{"id": "work", "time": "06:30"}"#)
        let before = try #require(rig.machine.core.alarms.plans["work"]?.pending)
        let seoul = ZoneRules(identifier: "Asia/Seoul", fixedOffset: 9 * 3600)
        let effects = rig.step(.timeSettings(zone: seoul, locale: .ko))
        let after = try #require(rig.machine.core.alarms.plans["work"]?.pending)
        #expect((before.seconds + 3600) % 86_400 == 6 * 3600 + 30 * 60)
        #expect((after.seconds + 9 * 3600) % 86_400 == 6 * 3600 + 30 * 60)
        #expect(after > rig.now)
        #expect(effects.json("noiseclock/bed/time")?["iso"]?.stringValue?.hasSuffix("+09:00") == true, "\(effects.topics)")
        #expect(effects.json("noiseclock/bed/alarms")?.arrayValue?.first?["next_trigger"]?.stringValue?.hasSuffix("+09:00") == true)
        #expect(rig.machine.core.settings.locale == .ko)
        // The same settings again change nothing.
        #expect(rig.step(.timeSettings(zone: seoul, locale: .ko)).publications.isEmpty)
    }
}
