import Foundation
import NoiseClockCore
import NoiseClockPlatform
import Testing

/// State files across releases on the real node: an earlier release's files are read whole and
/// nothing is set aside; fields a newer release added survive a rewrite; a file of a newer
/// format stops the node (exit 2) and is left exactly as it was.
@Suite struct StateUpgradeTests {
    static let history = NodeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/state-history")

    static func fixture(_ release: String) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: history.path).first { $0.hasPrefix(release + "-") })
        return history.appendingPathComponent(name)
    }

    /// `node`'s state directory holding the files of `release`, changed by `edit`.
    static func install(_ release: String, into node: NodeProcess, edit: (String, inout JSONObject) -> Void = { _, _ in }) throws {
        try FileManager.default.createDirectory(at: node.stateDirectory, withIntermediateDirectories: true)
        let source = try fixture(release)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            var object = try #require(try JSONParser().parse(Array(Data(contentsOf: source.appendingPathComponent(name)))).objectValue)
            edit(name, &object)
            try Data((JSONValue.object(object).serialized + "\n").utf8).write(to: node.stateDirectory.appendingPathComponent(name))
        }
    }

    @Test func theFilesOfAnEarlierReleaseAreReadWhole() async throws {
        let rig = try await AlarmRig()
        let node = try NodeProcess(brokerPort: rig.broker.port)
        try Self.install("v1.1", into: node)
        try await rig.start(node)
        defer { node.killHard() }
        let alarms = try await rig.client.waitFor("\(rig.root(node))/alarms", where: { $0.json?.arrayValue?.count == 3 })
        #expect(alarms.json?.arrayValue?.compactMap { $0["label"]?.stringValue }.sorted() == ["Airport", "Work", "주말"])
        let routines = try await rig.client.waitFor("\(rig.root(node))/routines", where: { $0.json?.arrayValue?.isEmpty == false })
        #expect(routines.json?.arrayValue?.count == 2)
        let aside = try FileManager.default.contentsOfDirectory(atPath: node.stateDirectory.path).filter { $0.contains(".corrupt") }
        #expect(aside.isEmpty, "set aside: \(aside)")
    }

    @Test func fieldsOfANewerReleaseSurviveACommandsRewrite() async throws {
        let rig = try await AlarmRig()
        let node = try NodeProcess(brokerPort: rig.broker.port)
        try Self.install("v1.2", into: node) { name, object in
            guard name == NodeCore.StateFile.alarms else { return }
            object["future_field"] = ["since": "1.4", "list": [1, 2]]
            object["alarms"] = .array((object["alarms"]?.arrayValue ?? []).map { alarm in
                guard var entry = alarm.objectValue, entry["id"] == "trip" else { return alarm }
                entry["future_field"] = ["gentle": true]
                return .object(entry)
            })
        }
        try await rig.start(node)
        defer { node.killHard() }
        try await rig.ok(node, "alarm/update", #"{"id": "trip", "label": "Airport (T2)"}"#)
        let data = try Data(contentsOf: node.stateDirectory.appendingPathComponent(NodeCore.StateFile.alarms))
        let file = try JSONParser().parse(Array(data))
        #expect(file["future_field"] == ["since": "1.4", "list": [1, 2]], "\(file.serialized)")
        let trip = try #require(file["alarms"]?.arrayValue?.first { $0["id"] == "trip" })
        #expect(trip["label"] == "Airport (T2)")
        #expect(trip["future_field"] == ["gentle": true])
    }

    @Test func aFileOfANewerVersionStopsTheNodeUntouched() throws {
        let node = try NodeProcess(brokerPort: try freeLoopbackPort())
        try FileManager.default.createDirectory(at: node.stateDirectory, withIntermediateDirectories: true)
        let file = node.stateDirectory.appendingPathComponent(NodeCore.StateFile.alarms)
        let written = Data((#"{"version":2,"alarms":[{"id":"x","time":"07:00","new_way":{}}]}"# + "\n").utf8)
        try written.write(to: file)
        try node.start()
        #expect(node.waitForExit(timeout: 15) == 2, "\(node.log)")
        #expect(node.log.contains("\(file.path) is version 2"), "\(node.log)")
        #expect(node.log.contains("reads up to version 1"), "\(node.log)")
        #expect(try Data(contentsOf: file) == written)
        // Nothing set aside, no state file written; `node.lock` (held while the node ran, and
        // empty) is no state file.
        let names = try FileManager.default.contentsOfDirectory(atPath: node.stateDirectory.path).sorted()
        #expect(names == [NodeCore.StateFile.alarms, StateDirectoryLock.fileName])
    }
}
