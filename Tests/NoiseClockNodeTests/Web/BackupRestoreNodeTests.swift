import Foundation
import NoiseClockCore
import Testing

/// Backup and restore between two real nodes (each with its own mosquitto), through the web API
/// and `noiseclock restore`: the restored node's retained state equals the backed-up one's, ids
/// included, and its alarm rings on its clock; a broken backup changes nothing and names the entry.
@Suite struct BackupRestoreNodeTests {
    /// Something set in every entry of a backup, through the web API (each answered once done).
    static let setUp: [(String, String)] = [
        ("alarm/add", #"{"id": "work", "time": "06:30", "label": "Work", "repeat": "weekdays", "sound": "chime", "volume": 40}"#),
        ("alarm/add", #"{"id": "early", "time": "05:10", "label": "Early"}"#),
        ("alarm/add", #"{"time": "09:00", "label": "An id the node made", "enabled": false}"#),
        ("routine/add", #"{"id": "bed", "label": "Bedtime", "start": "22:00", "sound": "brown"}"#),
        ("timer/presets/set", #"[{"id": "tea", "label": "Tea", "minutes": 4, "sound": "chime"}]"#),
        ("mix/set", #"{"id": "rain_mix", "name": "Rain", "layers": [{"sound": "rain", "volume": 60}, {"sound": "pink", "volume": 30}]}"#),
        ("style/set", ##"{"digit_color": "#ff8800", "show_seconds": true, "glow": 20}"##),
        ("noise/volume/set", "33"),
    ]

    /// `/api/state`, each retained topic's payload by topic (not `time`, which moves, nor `node`;
    /// `~/alarm` without `ready`, the node's own check of its sound device and clock, stamped with
    /// when it ran: each node runs it on its own schedule).
    static func retained(_ rig: WebRig) async throws -> [String: JSONValue] {
        let reply = try await rig.get("/api/state")
        #expect(reply.status == 200)
        var topics: [String: JSONValue] = [:]
        for (key, value) in try JSONParser().parse(reply.body).objectValue?.pairs ?? [] where key != "time" && key != "node" {
            topics[key] = value
        }
        if var alarm = topics["alarm"]?.objectValue {
            alarm["ready"] = nil
            topics["alarm"] = .object(alarm)
        }
        return topics
    }

    @Test func aBackupRestoredOnAFreshNodeGivesTheSameRetainedStateAndItsAlarmRings() async throws {
        async let startA = WebRig.start()
        async let startB = WebRig.start()
        let (a, b) = try await (startA, startB)
        defer { a.shutdown(); b.shutdown() }
        for (command, body) in Self.setUp {
            let reply = try await a.post(command, body)
            #expect(reply.status == 200, "\(command): \(reply.text)")
        }
        let backup = try await a.get("/api/backup")
        #expect(backup.status == 200)
        #expect(backup.headers["content-disposition"]?.contains("noiseclock-backup-testnode.json") == true)
        let document = try JSONParser().parse(backup.body)
        #expect(document["format"] == "noiseclock-backup")
        #expect(document["alarms"]?.arrayValue?.count == 3)

        let restored = try await b.post("restore", backup.text)
        #expect(restored.status == 200, "\(restored.text)")
        let want = try await Self.retained(a)
        let got = try await Self.retained(b)
        #expect(want.count >= 10)
        #expect(got.keys.sorted() == want.keys.sorted())
        for (topic, payload) in want {
            #expect(got[topic] == payload, "~/\(topic) differs after the restore")
        }
        print("backup round trip: \(want.count) retained topics compared, equal: \(want.keys.sorted().joined(separator: " "))")

        // The restored alarm rings on the restored node's clock, at its next 05:10 (the one-shot
        // alarm's trigger: tomorrow's was a day late when the test ran before 05:10 UTC).
        let boundary = NodeTime.nextMinute(hour: 5, minute: 10)
        try await b.node.setClock(to: boundary.addingTimeInterval(-1))
        let ring = try await b.client.waitFor("\(b.root)/alarm", where: { $0.json?["state"] == "ringing" })
        #expect(ring.json?["alarm_id"] == "early", "\(ring.text)")
    }

    /// The broken backups of issue 30 and the entry each refusal names.
    static let broken: [(String, String)] = [
        ("truncated", "backup"), ("wrong format", "format"), ("newer version", "version"), ("one bad alarm", "alarms[3].time"),
    ]

    @Test func aBrokenBackupChangesNothingAndNamesTheEntry() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        for (command, body) in Self.setUp.prefix(3) + [("alarm/add", #"{"id": "four", "time": "07:45"}"#)] {
            let reply = try await rig.post(command, body)
            #expect(reply.status == 200, "\(command): \(reply.text)")
        }
        let good = try JSONParser().parse(try await rig.get("/api/backup").body)
        let files = Self.stateFiles(rig.node)
        let before = try await Self.retained(rig)
        for (how, entry) in Self.broken {
            var object = try #require(good.objectValue)
            var bytes = Array(good.bytes.prefix(good.bytes.count - 40))
            switch how {
            case "truncated": break
            case "wrong format": object["format"] = "noiseclock-export"
            case "newer version": object["version"] = 2
            default:
                var alarms = try #require(object["alarms"]?.arrayValue)
                var fourth = try #require(alarms[3].objectValue)
                fourth["time"] = "7:61"
                alarms[3] = .object(fourth)
                object["alarms"] = .array(alarms)
            }
            if how != "truncated" { bytes = JSONValue.object(object).bytes }
            let reply = try await rig.post("restore", String(decoding: bytes, as: UTF8.self))
            #expect(reply.status == 400, "\(how): \(reply.text)")
            let error = try JSONParser().parse(reply.body)["error"]
            #expect(error?["field"] == .string(entry), "\(how): \(reply.text)")
            #expect(Self.stateFiles(rig.node) == files, "\(how): a state file changed")
            #expect(try await Self.retained(rig) == before, "\(how): the retained state changed")
        }
    }

    /// Every state file's bytes.
    static func stateFiles(_ node: NodeProcess) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["alarms.json", "routines.json", "timers.json", "mixes.json", "style.json", "noise.json"] {
            files[name] = try? Data(contentsOf: node.stateDirectory.appendingPathComponent(name))
        }
        return files
    }

    /// `noiseclock backup` / `noiseclock restore` as a terminal runs them: status and output.
    static func cli(_ arguments: [String], _ node: NodeProcess, environment: [String: String] = [:]) throws -> (Int32?, String) {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("NOISECLOCK_") }
        env["NOISECLOCK_WEB_ENABLED"] = "false"
        for (key, value) in environment { env[key] = value }
        let log = node.directory.appendingPathComponent("cli-\(UUID().uuidString.prefix(6)).out")
        let child = try ChildProcess(path: NodeProcess.binary.path, arguments: arguments + ["--config", node.configFile.path],
                                     environment: env, logPath: log.path)
        let status = child.wait(timeout: 30)
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    @Test func theTerminalRestoresIntoAStoppedNodeAndGoesThroughARunningOne() async throws {
        let a = try await WebRig.start()
        defer { a.shutdown() }
        for (command, body) in Self.setUp.prefix(3) {
            #expect(try await a.post(command, body).status == 200)
        }
        // Read from the files beside the running node.
        let (backupStatus, backup) = try Self.cli(["backup"], a.node)
        #expect(backupStatus == 0, "\(backup)")
        let file = a.node.directory.appendingPathComponent("backup.json")
        try backup.write(to: file, atomically: true, encoding: .utf8)

        // A node that is not running: the files are written by the command, read at its start.
        let broker = try TestBroker()
        let b = try NodeProcess(brokerPort: broker.port, nodeID: "other")
        let (restoreStatus, restoreOutput) = try Self.cli(["restore", file.path], b)
        #expect(restoreStatus == 0, "\(restoreOutput)")
        #expect(restoreOutput.contains("restored 3 alarms"), "\(restoreOutput)")
        try b.start()
        let client = try await TestClient(port: broker.port, subscriptions: ["noiseclock/other/alarms"])
        defer { client.shutdown() }
        let alarms = try await client.waitFor("noiseclock/other/alarms", where: { $0.json?.arrayValue?.count == 3 })
        let ids = alarms.json?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        let wanted = try JSONParser().parse(Array(backup.utf8))["alarms"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(ids) == Set(wanted))

        // Running with its web app off: refused, nothing changed; with it on: through the node.
        let (offStatus, offOutput) = try Self.cli(["restore", file.path], b)
        #expect(offStatus == 1)
        #expect(offOutput.contains("web app is off"), "\(offOutput)")
        let (onStatus, onOutput) = try Self.cli(["restore", file.path], a.node, environment: NodeProcess.web(port: a.port))
        #expect(onStatus == 0, "\(onOutput)")
        #expect(onOutput.contains("through the running node"), "\(onOutput)")
        // A terminal whose configuration differs from the running node's (here its environment
        // says the web app is off; a web.port saved in the web app is the same case): the
        // commands go where the node listens, which it recorded in node.lock.
        let (unawareStatus, unawareOutput) = try Self.cli(["restore", file.path], a.node)
        #expect(unawareStatus == 0, "\(unawareOutput)")
        #expect(unawareOutput.contains("through the running node at 127.0.0.1:\(a.port)"), "\(unawareOutput)")
        let (urlStatus, url) = try Self.cli(["web-url"], a.node)
        #expect(urlStatus == 0, "\(url)")
        #expect(url.contains(":\(a.port)/"), "\(url)")
        // A broken file: refused before anything, the entry named.
        try Data(backup.utf8.prefix(100)).write(to: file)
        let (brokenStatus, brokenOutput) = try Self.cli(["restore", file.path], a.node, environment: NodeProcess.web(port: a.port))
        #expect(brokenStatus == 1)
        #expect(brokenOutput.contains("restore refused: backup: not valid JSON"), "\(brokenOutput)")
        b.signal(SIGTERM)
        _ = b.waitForExit()
    }
}
