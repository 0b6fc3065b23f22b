import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.NodeFaults {
    /// The state directory refuses writes: commands are answered `storage_error`, nothing changes,
    /// the node stays up, and the next command after the disk recovers succeeds.
    @Suite(.serialized) struct FaultStorageTests {
        /// A tmpfs can be mounted only with CAP_SYS_ADMIN (root in CI); elsewhere that test is skipped.
        static let canMount: Bool = {
            guard let probe = try? makeTemporaryDirectory(prefix: "mount-probe") else { return false }
            defer { try? FileManager.default.removeItem(at: probe) }
            guard mount("tmpfs", probe.path, "tmpfs", 0, "size=64k") == 0 else { return false }
            umount2(probe.path, Int32(MNT_DETACH))
            return true
        }()

        /// Works as root and as non-root (root ignores permission bits, so chmod proves nothing):
        /// a directory where the spare file must go (`StateStore.write`) makes open fail with EISDIR.
        @Test func unwritableStateFileIsAStorageErrorAndChangesNothing() async throws {
            let online = try await OnlineNode.start()
            defer { online.shutdown() }
            let (node, client, root) = (online.node, online.client, online.root)
            try await command(client, root, "alarm/add", #"{"time": "06:00", "label": "kept", "sound": "none"}"#, expectOK: true)
            try await client.waitFor("\(root)/alarms", where: { FaultSupport.labels(in: $0.json) == ["kept"] })
            let fileBefore = try FaultSupport.stateFile(node.stateDirectory, "alarms.json")

            // The spare file (the previous document, kept for the next write) gives way to the directory.
            let blocker = node.stateDirectory.appendingPathComponent("alarms.json.tmp")
            try? FileManager.default.removeItem(at: blocker)
            try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
            let mark = client.messages.count
            let refused = try await command(client, root, "alarm/add", #"{"time": "07:00", "label": "lost", "sound": "none"}"#, expectOK: false)
            #expect(refused["error"]?["code"] == "storage_error", "\(refused)")
            try await command(client, root, "style/set", #"{"glow": 77}"#, expectOK: true)  // another file still works
            try await client.barrier(root)
            #expect(!client.messages.dropFirst(mark).contains { $0.topic == "\(root)/alarms" }, "no new ~/alarms")
            #expect(try FaultSupport.stateFile(node.stateDirectory, "alarms.json") == fileBefore)
            #expect(node.isRunning)

            try FileManager.default.removeItem(at: blocker)
            try await command(client, root, "alarm/add", #"{"time": "08:00", "label": "after", "sound": "none"}"#, expectOK: true)
            // Memory was not changed by the refused command: "lost" never appears.
            let after = try await client.waitFor("\(root)/alarms", where: { FaultSupport.labels(in: $0.json).contains("after") })
            #expect(Set(FaultSupport.labels(in: after.json)) == ["kept", "after"])
            #expect(Set(FaultSupport.labels(in: try FaultSupport.stateFile(node.stateDirectory, "alarms.json"))) == ["kept", "after"])
        }

        @Test(.enabled(if: FaultStorageTests.canMount, "needs permission to mount a tmpfs (root)"))
        func fullDiskIsAStorageErrorAndRecoversWhenSpaceIsFreed() async throws {
            let broker = try TestBroker()
            let node = try NodeProcess(brokerPort: broker.port)
            try FileManager.default.createDirectory(at: node.stateDirectory, withIntermediateDirectories: true)
            try #require(mount("tmpfs", node.stateDirectory.path, "tmpfs", 0, "size=64k,mode=0755") == 0)
            defer {
                node.killHard()
                umount2(node.stateDirectory.path, Int32(MNT_DETACH))
            }
            try node.start()
            let root = "noiseclock/\(node.nodeID)"
            let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
            defer { client.shutdown() }
            try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
            try await command(client, root, "alarm/add", #"{"time": "06:00", "label": "kept", "sound": "none"}"#, expectOK: true)

            // Without its spare file (the previous document, whose blocks the next write reuses), the
            // next write needs space of its own: a write that fits the spare still succeeds on a full disk.
            try? FileManager.default.removeItem(at: node.stateDirectory.appendingPathComponent("alarms.json.tmp"))
            let filler = node.stateDirectory.appendingPathComponent("filler")
            fill(filler.path)
            let refused = try await command(client, root, "alarm/add", #"{"time": "07:00", "label": "lost", "sound": "none"}"#, expectOK: false)
            #expect(refused["error"]?["code"] == "storage_error", "\(refused)")
            #expect(refused["error"]?["message"]?.stringValue?.contains("No space left") == true, "\(refused)")
            #expect(node.isRunning)
            #expect(Set(FaultSupport.labels(in: try FaultSupport.stateFile(node.stateDirectory, "alarms.json"))) == ["kept"])

            try FileManager.default.removeItem(at: filler)
            try await command(client, root, "alarm/add", #"{"time": "08:00", "label": "after", "sound": "none"}"#, expectOK: true)
            let after = try await client.waitFor("\(root)/alarms", where: { FaultSupport.labels(in: $0.json).contains("after") })
            #expect(Set(FaultSupport.labels(in: after.json)) == ["kept", "after"])
            #expect(Set(FaultSupport.labels(in: try FaultSupport.stateFile(node.stateDirectory, "alarms.json"))) == ["kept", "after"])
        }

        @Test func corruptStateFileIsMovedAsideAndTheNodeStarts() async throws {
            let broker = try TestBroker()
            let node = try NodeProcess(brokerPort: broker.port)
            try FileManager.default.createDirectory(at: node.stateDirectory, withIntermediateDirectories: true)
            let garbage = "{\"version\": 1, \"alarms\": [tru"
            try garbage.write(to: node.stateDirectory.appendingPathComponent("alarms.json"), atomically: true, encoding: .utf8)
            try node.start()
            let root = "noiseclock/\(node.nodeID)"
            let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
            defer { client.shutdown() }
            try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
            let alarms = try await client.waitFor("\(root)/alarms")
            #expect(alarms.json == .array([]))
            let names = try FileManager.default.contentsOfDirectory(atPath: node.stateDirectory.path)
            let aside = try #require(names.first { $0.hasPrefix("alarms.json.corrupt-") }, "\(names)")
            // Kept byte for byte for a human to inspect, and reported once in the log.
            #expect(try String(contentsOf: node.stateDirectory.appendingPathComponent(aside), encoding: .utf8) == garbage)
            #expect(node.log.components(separatedBy: "state file unreadable").count == 2, "\(node.log)")
            try await command(client, root, "alarm/add", #"{"time": "06:00", "label": "fresh", "sound": "none"}"#, expectOK: true)
            #expect(FaultSupport.labels(in: try FaultSupport.stateFile(node.stateDirectory, "alarms.json")) == ["fresh"])
        }

        /// Writes until the file system says it is full.
        private func fill(_ path: String) {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            defer { close(fd) }
            let block = [UInt8](repeating: 0x55, count: 4096)
            while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        }

        @discardableResult
        private func command(_ client: TestClient, _ root: String, _ topic: String, _ payload: String, expectOK: Bool) async throws -> JSONValue {
            let mark = client.messages.count
            client.publish("\(root)/\(topic)", payload)
            let response = try await client.waitFor("\(root)/response", after: mark)
            let json = try #require(response.json)
            #expect(json["ok"] == .bool(expectOK), "\(topic): \(response.text)")
            return json
        }
    }
}
