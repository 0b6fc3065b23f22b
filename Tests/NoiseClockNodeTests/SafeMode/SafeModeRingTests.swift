import Foundation
import Glibc
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// Safe mode's ring on a real node (mqtt-api v1.4), in the timing lane (its fire is measured to
    /// the second, its tone captured): a node with a station alarm, made to crash at its first two
    /// starts, is in safe mode at its third — `~/info`, `alarm/check` and `at_risk` say why — the
    /// alarm fires at its minute on the node's clock and rings the fallback tone (`sounding` with
    /// `fallback: true, reason: safe_mode`), which the capture hears; `safe_mode/exit` answers with
    /// its `request_id`, goes `offline` and comes back `online` as the same process, normal.
    struct SafeModeRingTests {
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

            try ProofSuite.NodeFaults.SafeModeNodeTests.crashTwice(node)

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
    }
}
