import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.NodeFaults {
    /// Safe mode on a real node (mqtt-api v1.4): made to crash at its first two starts (the
    /// test-only crash switch, a Swift runtime trap), its third start is in safe mode; 10 minutes on
    /// the node's clock and a restart end it, and under systemd `safe_mode/exit` exits with the status
    /// the unit restarts. (The ring at its minute and the exit in place: `SafeModeRingTests`.)
    @Suite(.serialized) struct SafeModeNodeTests {
        static let crash = ["NOISECLOCK_TEST_CRASH_AT_START": "1"]

        /// Starts `node` with the crash switch on, twice; each start must end by a signal.
        static func crashTwice(_ node: NodeProcess) throws {
            let environment = node.environment
            defer { node.environment = environment }
            node.environment.merge(crash) { $1 }
            for start in 1...2 {
                let began = Date()
                try node.start()
                let status = try #require(node.waitForExit(timeout: 60), "crashing start \(start) did not end")
                print("crashing start \(start): ended by status \(status) after \(Int(Date().timeIntervalSince(began) * 1000)) ms")
                #expect([128 + SIGILL, 128 + SIGTRAP].contains(status), "start \(start) ended with \(status), not by a trap")
            }
            let starts = try #require(node.startsDocument)
            #expect(starts["crashed_starts"] == 1, "the first crash is counted at the second start: \(starts)")
            #expect(starts["last_error"]?.stringValue?.hasPrefix("SIG") == true, "the signal handler's record: \(starts)")
        }

        /// Under systemd (`NOTIFY_SOCKET` set) the node does not re-execute itself: it exits with 75,
        /// which the unit's `Restart=on-failure` restarts, and never says STOPPING=1 (systemd would
        /// then stop the unit instead of restarting it).
        @Test func underSystemdExitEndsWithTheStatusTheUnitRestarts() async throws {
            let broker = try TestBroker()
            let node = try NodeProcess(brokerPort: broker.port)
            let root = "noiseclock/\(node.nodeID)"
            let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
            defer { client.shutdown() }
            try Self.crashTwice(node)
            let listener = try NotifySocketListener(abstract: false)
            node.environment["NOTIFY_SOCKET"] = listener.address
            var mark = client.messages.count
            try node.start()
            let info = try await client.waitFor("\(root)/info", timeout: 15, after: mark)
            #expect(info.json?["safe_mode"]?["crashed_starts"] == 2, "\(info.text)")
            mark = client.messages.count
            client.publish("\(root)/safe_mode/exit", #"{"request_id": "systemd"}"#)
            let answer = try await client.waitFor("\(root)/response", timeout: 10, after: mark, where: { $0.json?["request_id"] == "systemd" })
            #expect(answer.json?["result"]?["restarting"] == true, "\(answer.text)")
            #expect(node.waitForExit(timeout: 15) == 75)
            // Every datagram the node sent is in the socket by now (a unix datagram arrives before sendto returns).
            var said: [String] = []
            while let datagram = listener.receive() { said.append(datagram) }
            #expect(said.contains { $0.hasPrefix("READY=1") }, "\(said)")
            #expect(!said.contains { $0.contains("STOPPING=1") }, "\(said)")
            #expect(node.startsDocument?["crashed_starts"] == 0)
            // What systemd then starts is a normal node.
            node.environment["NOTIFY_SOCKET"] = nil
            mark = client.messages.count
            try node.start()
            let normal = try await client.waitFor("\(root)/info", timeout: 15, after: mark)
            #expect(normal.json?["safe_mode"] == .null, "\(normal.text)")
            node.signal(SIGTERM)
            #expect(node.waitForExit(timeout: 15) == 0)
        }

        @Test func tenMinutesOnTheNodesClockAndARestartEndSafeMode() async throws {
            let broker = try TestBroker()
            let node = try NodeProcess(brokerPort: broker.port)
            let root = "noiseclock/\(node.nodeID)"
            let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
            defer { client.shutdown() }
            let start = NodeTime.minute(hour: 12, minute: 0)
            try node.writeClock(to: start)
            try Self.crashTwice(node)

            var mark = client.messages.count
            try node.start()
            let info = try await client.waitFor("\(root)/info", timeout: 15, after: mark)
            #expect(info.json?["safe_mode"]?["crashed_starts"] == 2, "\(info.text)")
            // Stopped cleanly within the 10 minutes: still in safe mode at the next start.
            try await node.setClock(to: start.addingTimeInterval(9 * 60))
            node.signal(SIGTERM)
            #expect(node.waitForExit(timeout: 15) == 0)
            mark = client.messages.count
            try node.start()
            let again = try await client.waitFor("\(root)/info", timeout: 15, after: mark)
            #expect(again.json?["safe_mode"]?["crashed_starts"] == 2, "a restart before 10 minutes keeps safe mode: \(again.text)")

            // 10 minutes of this start on the node's clock (not waited: the clock is moved).
            try await node.setClock(to: start.addingTimeInterval(9 * 60 + 10 * 60 + 1))
            _ = try await node.logLine { $0.contains("safe mode ran 10 minutes") }
            #expect(node.startsDocument?["crashed_starts"] == 0)
            node.signal(SIGTERM)
            #expect(node.waitForExit(timeout: 15) == 0)
            mark = client.messages.count
            try node.start()
            let normal = try await client.waitFor("\(root)/info", timeout: 15, after: mark)
            #expect(normal.json?["safe_mode"] == .null, "\(normal.text)")
            node.signal(SIGTERM)
            #expect(node.waitForExit(timeout: 15) == 0)
        }
    }
}

extension NodeProcess {
    /// `<state_dir>/starts.json`, parsed.
    var startsDocument: JSONValue? {
        (try? Data(contentsOf: stateDirectory.appendingPathComponent("starts.json"))).flatMap { try? JSONParser().parse(Array($0)) }
    }
}
