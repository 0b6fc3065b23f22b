import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.NodeFaults {
    /// A restore is all or nothing even under `kill -9` (issue 37; http-api.md v1.4): the real
    /// `noiseclock restore` of a backup NEW onto a state directory holding OLD, killed at 200
    /// instants drawn by a seeded generator over the span in which it writes; after each, the
    /// directory is opened as the next start opens it (`noiseclock backup`, which completes a
    /// restore journal first, as the node's start does) and every state file is compared: the
    /// set must be wholly OLD or wholly NEW, no file missing. Before the journal, 3 of 40 kills in
    /// the first 20 ms left `alarms.json` from the backup and `stations.json` from before.
    @Suite struct RestoreKillTests {
        static let kills = 200
        static let seed: UInt64 = 37

        /// A backup of `base` (the empty node's) with 40 alarms, 20 stations, a noise and settings of its own.
        static func backup(_ base: JSONValue, tag: String, hour: Int, zone: String) -> String {
            guard var object = base.objectValue else { return "" }
            object["alarms"] = .array((0..<40).map { index in
                ["id": .string("\(tag)-\(index)"), "time": .string(String(format: "%02d:%02d", hour, index)), "label": .string("\(tag) \(index)")]
            })
            object["stations"] = .array((0..<20).map { index in
                ["id": .string("\(tag)-radio-\(index)"), "name": .string("\(tag) radio \(index)"),
                 "url": .string("http://radio.example/\(tag)/\(index).mp3")]
            })
            object["noise"] = ["sound": .string(tag == "old" ? "pink" : "brown"), "volume": .int(tag == "old" ? 20 : 60)]
            object["settings"] = ["timezone": .string(zone)]
            return JSONValue.object(object).serialized
        }

        /// Every state file a restore replaces, parsed (nil: missing).
        static func state(_ node: NodeProcess) -> [String: JSONValue?] {
            Dictionary(uniqueKeysWithValues: Backup.files.map { name in
                (name, (try? Data(contentsOf: node.stateDirectory.appendingPathComponent(name))).flatMap { try? JSONParser().parse(Array($0)) })
            })
        }

        static func restore(_ file: URL, _ node: NodeProcess) throws -> ChildProcess {
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("NOISECLOCK_") }
            environment["NOISECLOCK_WEB_ENABLED"] = "false"
            return try ChildProcess(path: NodeProcess.binary.path, arguments: ["restore", file.path, "--config", node.configFile.path],
                                    environment: environment, logPath: node.directory.appendingPathComponent("restore.out").path)
        }

        /// Seconds a whole `noiseclock restore` of `file` takes (the median of three).
        static func duration(_ file: URL, _ node: NodeProcess, reset: () throws -> Void) throws -> Double {
            var runs: [Double] = []
            for _ in 0..<3 {
                try reset()
                let started = Date()
                _ = try restore(file, node).wait(timeout: 30)
                runs.append(Date().timeIntervalSince(started))
            }
            return runs.sorted()[1]
        }

        @Test func aRestoreKilledAtAnyInstantLeavesTheWholeOldStateOrTheWholeNew() throws {
            let node = try NodeProcess(brokerPort: 1, nodeID: "restorekill")
            let (baseStatus, baseText) = try BackupRestoreNodeTests.cli(["backup"], node)
            #expect(baseStatus == 0, "\(baseText)")
            let base = try JSONParser().parse(Array(baseText.utf8))
            let oldFile = node.directory.appendingPathComponent("old.json")
            let newFile = node.directory.appendingPathComponent("new.json")
            let refusedFile = node.directory.appendingPathComponent("refused.json")
            try Self.backup(base, tag: "old", hour: 5, zone: "Asia/Seoul").write(to: oldFile, atomically: true, encoding: .utf8)
            try Self.backup(base, tag: "new", hour: 7, zone: "Europe/Berlin").write(to: newFile, atomically: true, encoding: .utf8)
            // Checked whole and refused at the last alarm: as long as a restore takes before it writes.
            try Self.backup(base, tag: "new", hour: 7, zone: "Europe/Berlin").replacingOccurrences(of: "07:39", with: "07:61")
                .write(to: refusedFile, atomically: true, encoding: .utf8)

            let state = node.stateDirectory
            let snapshot = node.directory.appendingPathComponent("old-state")
            #expect(try Self.restore(oldFile, node).wait(timeout: 30) == 0)
            try FileManager.default.copyItem(at: state, to: snapshot)
            let old = Self.state(node)
            #expect(try Self.restore(newFile, node).wait(timeout: 30) == 0)
            let new = Self.state(node)
            #expect(old.values.allSatisfy { $0 != nil } && new.values.allSatisfy { $0 != nil })
            #expect(["alarms.json", "stations.json", "noise.json", "settings.json"].allSatisfy { old[$0] != new[$0] })
            let reset = {
                try FileManager.default.removeItem(at: state)
                try FileManager.default.copyItem(at: snapshot, to: state)
            }
            let whole = try Self.duration(newFile, node, reset: reset)
            let checking = try Self.duration(refusedFile, node, reset: reset)
            // From a little before the writes begin to a little after the process ends.
            let from = checking * 0.9, span = max(whole * 1.1 - from, 0.005)

            var generator = SplitMix64(seed: Self.seed)
            var outcomes = ["old": 0, "new": 0, "mixed": 0, "completed at the next opening": 0]
            for kill in 0..<Self.kills {
                try reset()
                let instant = from + Double.random(in: 0..<1, using: &generator) * span
                let child = try Self.restore(newFile, node)
                usleep(UInt32(instant * 1_000_000))
                child.signal(SIGKILL)
                _ = child.wait(timeout: 30)
                if FileManager.default.fileExists(atPath: state.appendingPathComponent("restore.journal").path) {
                    outcomes["completed at the next opening", default: 0] += 1
                }
                let (status, output) = try BackupRestoreNodeTests.cli(["backup"], node)
                #expect(status == 0, "kill \(kill): \(output)")
                let after = Self.state(node)
                let verdict = after == old ? "old" : after == new ? "new" : "mixed"
                outcomes[verdict, default: 0] += 1
                if verdict == "mixed" {
                    let fromOld = Backup.files.filter { after[$0] == old[$0] }, fromNew = Backup.files.filter { after[$0] == new[$0] }
                    let missing = after.filter { $0.value == nil }.keys.sorted()
                    Issue.record("kill \(kill) at \(Int(instant * 1000)) ms: old \(fromOld), new \(fromNew), missing \(missing)")
                }
            }
            print("restore kill -9: \(Self.kills) kills (seed \(Self.seed)) over \(Int(from * 1000))-\(Int((from + span) * 1000)) ms "
                  + "(a whole restore \(Int(whole * 1000)) ms, its checks \(Int(checking * 1000)) ms): \(outcomes)")
            #expect(outcomes["mixed"] == 0)
        }
    }
}
