import Foundation
import Glibc
import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// Settings through a real node's web app: behind the token, never on MQTT, refused in the
/// file's words, carried by a backup to another node, which takes them at once and starts with them.
@Suite struct WebSettingsNodeTests {
    @Test func settingsGoThroughTheWebAppAndTravelWithABackup() async throws {
        async let startA = WebRig.start()
        async let startB = WebRig.start()
        let (a, b) = try await (startA, startB)
        defer { a.shutdown(); b.shutdown() }
        #expect(try await a.get("/api/settings", headers: [:]).status == 401)
        let all = try JSONParser().parse(try await a.get("/api/settings").body)
        #expect(all["values"]?.objectValue?.keys.count == ConfigurationSchema.keys.count)
        #expect(all["sources"]?["web.port"] == "environment")
        #expect(all["sources"]?["timezone"] == "file")

        let refused = try await a.post("settings", #"{"speech.rate": 500}"#)
        #expect(refused.status == 400)
        #expect(try JSONParser().parse(refused.body)["error"]?["field"] == "speech.rate", "\(refused.text)")
        let locked = try await a.post("settings", #"{"web.port": 9}"#)
        #expect(locked.text.contains("set by NOISECLOCK_WEB_PORT"), "\(locked.text)")
        let changed = try await a.post("settings", #"{"timezone": "Asia/Seoul"}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(try JSONParser().parse(changed.body)["sources"]?["timezone"] == "web")
        try await a.client.barrier(a.root)
        // The zone shows in `~/time` (it applies at once); the settings themselves never go out.
        #expect(!a.client.messages.contains { $0.topic.contains("settings") || $0.text.contains("\"values\"") })

        let backup = try await a.get("/api/backup")
        let document = try JSONParser().parse(backup.body)
        #expect(document["settings"] == ["timezone": "Asia/Seoul"])
        var broken = try #require(document.objectValue)
        broken["settings"] = ["timezone": "Mars/Base"]
        let badRestore = try await b.post("restore", JSONValue.object(broken).serialized)
        #expect(badRestore.status == 400)
        #expect(try JSONParser().parse(badRestore.body)["error"]?["field"] == "settings.timezone", "\(badRestore.text)")
        // The value is the backup's: the refusal says so, not "set in the web app".
        let said = try JSONParser().parse(badRestore.body)["error"]?["message"]?.stringValue ?? ""
        #expect(said.hasSuffix("(in the backup)") && !said.contains("set in the web app"), "\(said)")
        let settingsFile = b.node.stateDirectory.appendingPathComponent("settings.json")
        #expect(!FileManager.default.fileExists(atPath: settingsFile.path))

        let beforeRestore = b.client.messages.count
        #expect(try await b.post("restore", backup.text).status == 200)
        let restored = try JSONParser().parse(try await b.get("/api/settings").body)
        #expect(restored["sources"]?["timezone"] == "web")
        #expect(restored["values"]?["timezone"] == "Asia/Seoul")
        // A restore's settings apply as a Save's do: B's time is in Seoul at once, no restart...
        _ = try await b.client.waitFor("\(b.root)/time", after: beforeRestore,
                                       where: { $0.json?["iso"]?.stringValue?.hasSuffix("+09:00") == true })
        // ...and the restarted node keeps the zone.
        b.node.signal(SIGTERM)
        #expect(b.node.waitForExit() == 0)
        try b.node.start()
        let info = try await b.client.waitFor("\(b.root)/info", after: b.client.messages.count,
                                              where: { $0.json?["started_at"]?.stringValue?.hasSuffix("+09:00") == true })
        #expect(info.json?["started_at"]?.stringValue?.hasSuffix("+09:00") == true)
    }

    @Test func aNewTimeZoneAppliesAtOnceAndReplansTheAlarms() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        #expect(try await rig.post("alarm/add", #"{"id": "work", "time": "06:30"}"#).status == 200)
        let mark = rig.client.messages.count
        let sent = Date()
        let changed = try await rig.post("settings", #"{"timezone": "Asia/Seoul"}"#)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(try JSONParser().parse(changed.body)["applies"]?["timezone"] == "now")
        // How fast is a figure (printed, and in the commit), not a bound: the parallel stage is too busy to time.
        let time = try await rig.client.waitFor("\(rig.root)/time", after: mark,
                                                 where: { $0.json?["iso"]?.stringValue?.hasSuffix("+09:00") == true })
        let alarms = try await rig.client.waitFor("\(rig.root)/alarms", after: mark, where: {
            $0.json?.arrayValue?.first?["next_trigger"]?.stringValue?.hasSuffix("T06:30:00+09:00") == true
        })
        let seconds = max(time.at, alarms.at).timeIntervalSince(sent)
        print("live time zone change: ~/time and ~/alarms in Asia/Seoul \(Int(seconds * 1000)) ms after POST /api/settings")
        #expect(alarms.json?.arrayValue?.first?["id"] == "work")
    }
}
