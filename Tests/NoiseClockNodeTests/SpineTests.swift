import Foundation
import Glibc
import NoiseClockCore
import Testing

/// The node's spine over a real broker: availability, last will, time, commands, reconnects.
struct SpineTests {
    @Test func announcesOnlineRetainedAndAnswersBadPayloads() async throws {
        let running = try await OnlineNode.start(subscribing: ["#"])
        defer { running.shutdown() }
        let broker = running.broker
        let (node, client, root) = (running.node, running.client, running.root)

        // A newcomer sees `online` as a retained message.
        let late = try await TestClient(port: broker.port, subscriptions: ["\(root)/availability"])
        defer { late.shutdown() }
        let retained = try await late.waitFor("\(root)/availability")
        #expect(retained.retain && retained.text == "online")

        // Bad payloads get clear answers and the node stays up.
        let cases: [(topic: String, payload: String, code: String)] = [
            ("alarm/add", "{not json", "invalid_json"),
            ("alarm/add", "[1,", "invalid_json"),
            ("alarm/add", "{\"time\": \"25:00\"}", "invalid_field"),
            ("style/set", String(repeating: "x", count: 70_000), "payload_too_large"),
        ]
        for (index, entry) in cases.enumerated() {
            let mark = client.messages.count
            client.publish("\(root)/\(entry.topic)", entry.payload)
            let response = try await client.waitFor("\(root)/response", after: mark)
            #expect(response.json?["ok"] == .bool(false), "case \(index)")
            #expect(response.json?["error"]?["code"] == .string(entry.code), "case \(index): \(response.text)")
        }
        let mark = client.messages.count
        client.publish("\(root)/alarm/add", bytes: [0x7B, 0xFF, 0xFE, 0x7D])
        let invalidUTF8 = try await client.waitFor("\(root)/response", after: mark)
        #expect(invalidUTF8.json?["error"]?["code"] == "invalid_json")
        #expect(node.isRunning)
    }

    @Test func echoesRequestIDsAndAnswersGroupCommands() async throws {
        let running = try await OnlineNode.start(subscribing: ["#"])
        defer { running.shutdown() }
        let client = running.client
        let root = running.root

        client.publish("noiseclock/all/style/set", "{\"request_id\": \"abc-1\", \"use_24_hour\": true}")
        let response = try await client.waitFor("\(root)/response")
        #expect(response.json?["request_id"] == "abc-1")
        #expect(response.json?["command"] == "style/set")
        #expect(response.json?["ok"] == true)
    }

    @Test func honoursMQTTv5ResponseTopicAndCorrelationData() async throws {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port)
        try node.start()
        let root = "noiseclock/\(node.nodeID)"
        let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#", "replies/me"])
        defer { client.shutdown() }
        try await client.waitFor("\(root)/availability", where: { $0.text == "online" })
        // mosquitto_pub sets the v5 properties exactly as another client library would.
        let publisher = try ChildProcess(
            path: "/usr/bin/mosquitto_pub",
            arguments: ["-p", "\(broker.port)", "-V", "mqttv5", "-t", "\(root)/noise/volume/set", "-m", "35",
                        "-D", "publish", "response-topic", "replies/me", "-D", "publish", "correlation-data", "corr-42"],
            environment: [:], logPath: "/dev/null"
        )
        #expect(publisher.wait() == 0)
        let reply = try await client.waitFor("replies/me")
        #expect(reply.json?["command"] == "noise/volume/set")
        #expect(reply.json?["ok"] == true)
        #expect(reply.correlationData == Array("corr-42".utf8))
        // The usual response goes out as well.
        try await client.waitFor("\(root)/response", where: { $0.json?["command"] == "noise/volume/set" })
    }

    @Test func lastWillSaysOfflineAfterKill9() async throws {
        let running = try await OnlineNode.start(subscribing: ["availability"])
        defer { running.shutdown() }
        let (node, client, root) = (running.node, running.client, running.root)
        let mark = client.messages.count
        node.killHard()
        // The broker sends the will once it notices the dead socket (at once for a closed socket).
        try await client.waitFor("\(root)/availability", timeout: 15, after: mark, where: { $0.text == "offline" })
    }

    @Test func cleanShutdownPublishesOffline() async throws {
        let running = try await OnlineNode.start(subscribing: ["availability"])
        defer { running.shutdown() }
        let (node, client, root) = (running.node, running.client, running.root)
        let mark = client.messages.count
        node.signal(SIGTERM)
        try await client.waitFor("\(root)/availability", timeout: 5, after: mark, where: { $0.text == "offline" })
        #expect(node.waitForExit() == 0)
    }

    @Test func comesBackOnlineWithin5sOfABrokerRestart() async throws {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port)
        try node.start()
        let root = "noiseclock/\(node.nodeID)"
        let first = try await TestClient(port: broker.port, subscriptions: ["\(root)/availability"])
        try await first.waitFor("\(root)/availability", where: { $0.text == "online" })
        first.shutdown()

        broker.kill()
        // The node has seen the broker go (its socket closed): the restart is one it must reconnect to.
        _ = try await node.logLine { $0.contains("disconnected from MQTT broker") }
        try broker.start()
        let restarted = Date()
        // The restarted broker has no persistence: only the node can bring `online` back.
        let client = try await TestClient(port: broker.port, subscriptions: ["\(root)/availability"])
        defer { client.shutdown() }
        let online = try await client.waitFor("\(root)/availability", timeout: 5, where: { $0.text == "online" })
        #expect(online.at.timeIntervalSince(restarted) < 5)
    }
}

extension TimingSuite.Clock {
    /// `~/time` on the minute boundary of the node's clock (a zone with DST), on time.
    struct MinuteTimeTests {
        @Test func publishesTimeOnTheMinuteBoundary() async throws {
            let online = try await OnlineNode.start(subscribing: ["time", "availability"], environment: ["NOISECLOCK_TIMEZONE": "Europe/Berlin"])
            defer { online.shutdown() }
            let (node, client, root) = (online.node, online.client, online.root)
            // The node's clock moves to 0.3 s before the next minute instead of the test waiting for it.
            let nextMinute = (node.now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
            let mark = client.messages.count
            try await node.setClock(to: Date(timeIntervalSince1970: nextMinute - 0.3))
            let message = try await client.waitFor("\(root)/time", timeout: 10, after: mark)
            let json = try #require(message.json)
            let epoch = try #require(json["epoch"]?.intValue)
            #expect(epoch % 60 == 0)
            #expect(Double(epoch) == nextMinute)
            let lateness = node.nodeTime(of: message.at).timeIntervalSince1970 - Double(epoch)
            #expect(lateness >= 0 && lateness < 0.5, "received \(lateness) s after the boundary")
            #expect(json["timezone"] == "Europe/Berlin")
            let iso = try #require(json["iso"]?.stringValue)
            #expect(iso.hasSuffix("+01:00") || iso.hasSuffix("+02:00"))
            #expect(json["display"]?.stringValue?.count == 5)
            #expect(json["ampm"] == .null)
            #expect(json["weekday"]?.stringValue?.count == 3)
            #expect(message.retain == false)
        }
    }
}
