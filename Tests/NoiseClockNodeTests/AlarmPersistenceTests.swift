import Foundation
import Glibc
import NoiseClockCore
import Testing

/// alarms.json on a real node: acknowledged means saved, damaged files are kept as evidence,
/// and a command that changes nothing touches neither the file nor the retained topics.
struct AlarmPersistenceTests {
    @Test func acknowledgedAddsSurviveKill9() async throws {
        let (rig, node) = try await AlarmRig.started()
        defer { rig.shutdown() }

        var added: [JSONValue] = []
        for index in 1...5 {
            added.append(try await rig.ok(node, "alarm/add", #"{"time": "05:3\#(index)", "label": "Keep \#(index)", "repeat": ["mon", "wed"]}"#))
        }
        // No clean shutdown: the process dies the moment the last acknowledgement is in.
        node.killHard()
        let ids = added.compactMap { $0["id"]?.stringValue }
        #expect(ids.count == 5)
        let stored = try #require(node.alarmsDocument?["alarms"]?.arrayValue)
        #expect(stored.compactMap { $0["id"]?.stringValue } == ids)
        #expect(node.alarmsDocument?["version"] == 1)

        try await rig.start(node)
        let list = try #require(try await rig.retained(node, "alarms").arrayValue)
        #expect(list == added, "restored: \(JSONValue.array(list).serialized)")
    }

    struct DamagedFile: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        /// Alarms the node can still recover from it.
        let recoverable: [String]
        var testDescription: String { name }
    }

    static let damagedFiles = [
        DamagedFile(name: "binary garbage", bytes: [0x00, 0xFF, 0x13, 0x37] + Array("not json at all".utf8), recoverable: []),
        DamagedFile(name: "truncated write", bytes: Array(#"{"version":1,"id_counter":3,"alarms":[{"id":"a","time":"07:"#.utf8), recoverable: []),
        DamagedFile(name: "not an object", bytes: Array("[1, 2, 3]".utf8), recoverable: []),
        // A newer `version` is no longer "damaged": it stops the node, untouched (v1.3,
        // StateUpgradeTests/aFileOfANewerVersionStopsTheNodeUntouched).
        DamagedFile(
            name: "one unreadable alarm",
            bytes: Array(#"{"version":1,"alarms":[{"id":"keep-me","time":"07:00"},{"id":"broken","time":"31:00"}],"ring":null}"#.utf8),
            recoverable: ["keep-me"]
        ),
    ]

    @Test(arguments: damagedFiles)
    func damagedStateFileIsMovedAsideAndKept(_ damaged: DamagedFile) async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let node = try rig.makeNode()
        try FileManager.default.createDirectory(at: node.stateDirectory, withIntermediateDirectories: true)
        try Data(damaged.bytes).write(to: node.alarmsFile)
        try await rig.start(node)

        let list = try #require(try await rig.retained(node, "alarms").arrayValue)
        #expect(list.compactMap { $0["id"]?.stringValue } == damaged.recoverable)
        let evidence = try FileManager.default.contentsOfDirectory(atPath: node.stateDirectory.path)
            .filter { $0.hasPrefix("alarms.json.corrupt-") }
        #expect(evidence.count == 1, "state dir: \(evidence)")
        let name = try #require(evidence.first)
        let stamp = try #require(Double(name.dropFirst("alarms.json.corrupt-".count)))
        #expect(abs(stamp - Date().timeIntervalSince1970) < 60)
        #expect(node.log.contains("moved aside") && node.log.contains(name), "log: \(node.log.suffix(2000))")

        // The node works, and its next write goes to a fresh file; the evidence is untouched.
        try await rig.ok(node, "alarm/add", #"{"time": "06:00", "label": "After"}"#)
        let kept = try Data(contentsOf: node.stateDirectory.appendingPathComponent(name))
        #expect(Array(kept) == damaged.bytes)
        #expect(node.alarmsDocument?["alarms"]?.arrayValue?.count == damaged.recoverable.count + 1)
        #expect(node.isRunning)
    }

    @Test func aCommandThatChangesNothingNeitherWritesNorPublishes() async throws {
        let (rig, node) = try await AlarmRig.started()
        defer { rig.shutdown() }
        try await rig.ok(node, "alarm/add", #"{"id": "same", "time": "07:00", "repeat": "weekdays"}"#)
        try await rig.ok(node, "alarm/update", #"{"id": "same", "label": "Same", "volume": 60}"#)
        let current = try #require(rig.latest(node, "alarms"))
        #expect(current.arrayValue?.first?["label"] == "Same")
        // The loop writes a plan's files before it publishes the plan's answer: the file is final now.
        let identity = try #require(node.alarmsFileIdentity)
        let mark = rig.client.messages.count

        let again = try await rig.ok(node, "alarm/update", #"{"id": "same", "label": "Same", "volume": 60, "request_id": "r2"}"#)
        #expect(again["label"] == "Same")
        try await rig.ok(node, "alarm/enable", "same")
        try await rig.ok(node, "alarm/update", #"{"id": "same", "repeat": ["mon", "tue", "wed", "thu", "fri"]}"#)
        // Replaying the published list (output fields included) into alarms/set is a no-op too.
        try await rig.ok(node, "alarms/set", current.serialized)
        let responses = rig.messages(node, "response", after: mark).count
        try await rig.barrier(node)

        #expect(node.alarmsFileIdentity == identity)
        #expect(rig.messages(node, "alarms", after: mark).isEmpty)
        #expect(rig.messages(node, "alarm", after: mark).isEmpty)
        #expect(rig.messages(node, "alarm/event", after: mark).isEmpty)
        #expect(responses == 4)
    }
}
