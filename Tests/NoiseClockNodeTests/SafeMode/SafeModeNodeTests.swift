import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.NodeFaults {
    /// Safe mode on a real node (mqtt-api v1.4): made to crash at its first two starts (the
    /// test-only crash switch, a Swift runtime trap), its third start is in safe mode — `~/info`
    /// and readiness say why, a station alarm due then rings the fallback tone at its minute and the
    /// capture hears it — and `safe_mode/exit`, or 10 minutes on the node's clock and a restart, end it.
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

        @Test func aNodeCrashingAtEveryStartRingsTheToneInSafeModeUntilExit() async throws {
            let capture = try AudioCapture(device: "nc_safe_mode")
            let broker = try TestBroker()
            let node = try NodeProcess(brokerPort: broker.port, environment: capture.environment)
            let root = "noiseclock/\(node.nodeID)"
            let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#"])
            defer { client.shutdown() }
            // A normal start first: a station (nothing listens on port 9) and an alarm on it at 04:00.
            let ring = NodeTime.nextMinute(hour: 4, minute: 0)
            try node.writeClock(to: ring.addingTimeInterval(-3600))
            try node.start()
            try await client.waitFor("\(root)/availability", timeout: 15, where: { $0.text == "online" })
            for (topic, payload) in [("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://127.0.0.1:9/jazz.mp3"}"#),
                                     ("alarm/add", #"{"id": "wake", "time": "04:00", "sound": "radio:jazz", "ramp_seconds": 0}"#)] {
                let mark = client.messages.count
                client.publish("\(root)/\(topic)", payload)
                let answer = try await client.waitFor("\(root)/response", timeout: 10, after: mark)
                #expect(answer.json?["ok"] == true, "\(topic): \(answer.text)")
            }
            node.signal(SIGTERM)
            #expect(node.waitForExit(timeout: 15) == 0)

            try Self.crashTwice(node)

            // The third start: safe mode, and why.
            var mark = client.messages.count
            let third = mark
            try node.start()
            try await client.waitFor("\(root)/availability", timeout: 15, after: mark, where: { $0.text == "online" })
            let info = try await client.waitFor("\(root)/info", timeout: 10, after: mark)
            let safe = try #require(info.json?["safe_mode"]?.objectValue, "~/info: \(info.text)")
            #expect(safe["crashed_starts"] == 2)
            #expect(safe["last_error"]?.stringValue?.hasPrefix("SIG") == true, "\(info.text)")
            #expect(safe["since"]?.stringValue?.isEmpty == false)
            mark = client.messages.count
            client.publish("\(root)/alarm/check", #"{"request_id": "why"}"#)
            let check = try await client.waitFor("\(root)/response", timeout: 10, after: mark, where: { $0.json?["request_id"] == "why" })
            #expect(check.json?["result"]?["problems"]?.arrayValue?.first?["code"] == "safe_mode", "\(check.text)")
            let risk = try await client.waitFor("\(root)/alarm/event", timeout: 10, after: third, where: { $0.json?["event"] == "at_risk" })
            #expect(risk.json?["id"] == "wake" && risk.json?["problems"]?.arrayValue?.first?["code"] == "safe_mode", "\(risk.text)")

            // The alarm at its minute: the fallback tone, said so, and heard.
            mark = client.messages.count
            try await node.setClock(to: ring.addingTimeInterval(-2))
            let fired = try await client.waitFor("\(root)/alarm/fired", timeout: 10, after: mark)
            let lateness = node.nodeTime(of: fired.at).timeIntervalSince(ring)
            #expect(lateness >= 0 && lateness < 1, "fired \(lateness) s after its minute")
            let sounding = try await client.waitFor("\(root)/alarm/event", timeout: 10, after: mark, where: {
                ["sounding", "failed"].contains($0.json?["event"]?.stringValue ?? "")
            })
            #expect(sounding.json?["event"] == "sounding" && sounding.json?["fallback"] == true, "\(sounding.text)")
            #expect(sounding.json?["reason"] == "safe_mode", "\(sounding.text)")
            #expect(sounding.at.timeIntervalSince(fired.at) < 2, "sounding within the failsafe's 2 s")
            let heard = capture.frames
            let second = 48_000
            let deadline = Date().addingTimeInterval(10)
            while capture.frames < heard + second, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let peak = try capture.read(heard..<(heard + second)).left.map(abs).max() ?? 0
            #expect(peak > 0.05, "the tone is heard: peak \(peak)")
            let confirmed = Int(sounding.at.timeIntervalSince(fired.at) * 1000)
            print("safe mode: fired \(Int(lateness * 1000)) ms after its minute, sounding \(confirmed) ms later, peak \(peak)")
            mark = client.messages.count
            client.publish("\(root)/alarm/dismiss", "")
            try await client.waitFor("\(root)/response", timeout: 10, after: mark)

            // `safe_mode/exit`: answered with its request id, the node goes offline, starts again
            // (the same process, re-executed), normal.
            let pid = node.pid
            mark = client.messages.count
            client.publish("\(root)/safe_mode/exit", #"{"request_id": "leave"}"#)
            let answer = try await client.waitFor("\(root)/response", timeout: 10, after: mark, where: { $0.json?["request_id"] == "leave" })
            #expect(answer.json?["ok"] == true && answer.json?["result"]?["restarting"] == true, "\(answer.text)")
            try await client.waitFor("\(root)/availability", timeout: 15, after: mark, where: { $0.text == "offline" })
            let back = client.messages.count
            let online = try await client.waitFor("\(root)/availability", timeout: 15, after: back, where: { $0.text == "online" })
            let restartMilliseconds = Int(online.at.timeIntervalSince(answer.at) * 1000)
            print("safe_mode/exit: answered → online again: \(restartMilliseconds) ms; last_error: \(safe["last_error"] ?? .null)")
            let normal = try await client.waitFor("\(root)/info", timeout: 10, after: back)
            #expect(normal.json?["safe_mode"] == .null, "\(normal.text)")
            #expect(node.isRunning && node.pid == pid)
            #expect(node.startsDocument?["crashed_starts"] == 0)
            node.signal(SIGTERM)
            #expect(node.waitForExit(timeout: 15) == 0)
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
