import Foundation
import NoiseClockCore
import Testing

/// Issue 31 findings 1, 7, 8 and issue 27's `request_id` for speech, on the real node and broker
/// (and its web app): each test reproduces what the tester did, and failed before the fix.
@Suite struct TrustRoundThreeTests {
    /// A node that can speak (ALSA's `null` opens), with its web app.
    static func speakingRig() async throws -> WebRig {
        try await WebRig.start(environment: ["NOISECLOCK_AUDIO_DEVICE": "null"])
    }

    /// Sends one command and returns the response that echoes `id` (or the first one naming the
    /// command when the payload carries no id that could be read).
    static func answer(_ rig: WebRig, _ topic: String, _ payload: String, id: String = "abc") async throws -> JSONValue {
        let mark = rig.client.messages.count
        rig.client.publish("\(rig.root)/\(topic)", payload)
        let response = try await rig.client.waitFor("\(rig.root)/response", timeout: 20, after: mark) {
            $0.json?["command"] == .string(topic)
        }
        return try #require(response.json)
    }

    /// Finding 1: 63 KB of U+1100 is one grapheme cluster; over HTTP it was accepted as 1–300
    /// characters (19 minutes of speech, 577–686 MB); over MQTT 102 KB was parsed before the
    /// 64 KiB check (1,848 s, 1.0 GB). Now: `invalid_field` and `payload_too_large`, nothing said.
    @Test func sayIsMeasuredInScalarsAndBytesOverHTTPAndMQTT() async throws {
        let rig = try await Self.speakingRig()
        defer { rig.shutdown() }
        let http = try await rig.post("say", String(repeating: "\u{1100}", count: 21_000))
        #expect(http.status == 400 && http.errorCode == "invalid_field", "\(http.status) \(http.text.prefix(300))")
        let json = try await rig.post("say", #"{"text": "\#(String(repeating: "👩\u{200D}", count: 200))👩"}"#)
        #expect(json.status == 400 && json.errorCode == "invalid_field", "\(json.status) \(json.text.prefix(300))")
        let mqtt = try await Self.answer(rig, "say", String(repeating: "\u{1100}", count: 34_000))
        #expect(mqtt["error"]?["code"] == "payload_too_large", "\(mqtt.serialized.prefix(300))")
        // Everything before the barrier is handled and logged: nothing was said.
        try await rig.client.barrier(rig.root)
        let spoken = rig.node.log.split(separator: "\n").filter { $0.hasSuffix("] speak") }
        #expect(spoken.isEmpty, "\(spoken.map { $0.prefix(200) })")
        // And a short text still is.
        let said = try await rig.post("say", "Good night")
        #expect(said.status == 200, "\(said.text)")
    }

    /// Issue 27: every deferred answer echoes `request_id` ("abc" in, "abc" out), valid payload or
    /// not, over MQTT and over `POST /api/say`; before, `~/say` answered `"request_id": null`.
    @Test func deferredAnswersEchoTheRequestIDOverMQTTAndHTTP() async throws {
        let rig = try await Self.speakingRig()
        defer { rig.shutdown() }
        let long = String(repeating: "x", count: 301)
        for (topic, payload, ok) in [
            ("say", #"{"text": "Good night", "request_id": "abc"}"#, true),
            ("say", #"{"text": "\#(long)", "request_id": "abc"}"#, false),
            ("speak/time", #"{"request_id": "abc"}"#, true),
            ("speak/time", #"{"request_id": "abc", "now": 1}"#, false),
            ("speak/next_alarm", #"{"request_id": "abc"}"#, true),
            ("speak/next_alarm", #"{"request_id": "abc", "now": 1}"#, false),
            ("buttons/learn", #"{"request_id": "abc"}"#, false),  // no input device: not_found
            ("buttons/learn", #"{"request_id": "abc", "now": 1}"#, false),
            ("alarm/check", #"{"request_id": "abc"}"#, true),
            ("alarm/check", #"{"request_id": "abc", "now": 1}"#, false),
        ] {
            let response = try await Self.answer(rig, topic, payload)
            #expect(response["request_id"] == "abc", "\(topic) \(payload.prefix(60)) → \(response.serialized.prefix(300))")
            #expect(response["ok"] == .bool(ok), "\(topic) \(payload.prefix(60)) → \(response.serialized.prefix(300))")
        }
        for (body, status) in [(#"{"text": "Good night", "request_id": "abc"}"#, 200), (#"{"text": "\#(long)", "request_id": "abc"}"#, 400)] {
            let reply = try await rig.post("say", body)
            #expect(reply.status == status && reply.json?["request_id"] as? String == "abc", "\(reply.status) \(reply.text.prefix(300))")
        }
    }

    /// Finding 8: payload text reached the log raw (a newline forged a line, ESC coloured the
    /// terminal). An unknown field name is quoted in the refusal the node logs: one line, escaped.
    @Test func payloadTextReachesTheLogEscaped() async throws {
        let online = try await OnlineNode.start()
        defer { online.shutdown() }
        online.client.publish("\(online.root)/alarm/add", #"{"time": "07:00", "\n[forged] \u001b[31mred": 1}"#)
        let line = try await online.node.logLine { $0.contains("command refused") && $0.contains("forged") }
        #expect(line.contains(#"\n[forged] \u{1B}[31mred"#), "\(line)")
        let log = online.node.log
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("[forged]") }, "a forged line")
        #expect(!log.unicodeScalars.contains("\u{1B}"), "an ESC reached the log")
    }

    /// Finding 7: three 20 MB messages on `{base}/groups/family/ring` (every node subscribes to it)
    /// stalled the loop (1.1 s command latency) and added 40 MB. Now the broker drops them (MQTT v5
    /// maximum packet size), and one of 20 KB (over that topic's 16 KiB cap) is dropped by the
    /// node's client, with one log line: the next command is answered and RSS stays put. Over MQTT
    /// 3.1.1 (no maximum packet size) the client drops all four before copying them, and the
    /// allocator gives libmosquitto's buffers back (`ProcessMemory.giveBackLargeBlocks`).
    @Test(arguments: ["5", "3.1.1"])
    func oversizedMessagesOnAnyTopicNeverReachTheLoop(protocolVersion: String) async throws {
        let online = try await OnlineNode.start(environment: ["NOISECLOCK_MQTT_PROTOCOL": protocolVersion])
        defer { online.shutdown() }
        try await online.client.barrier(online.root)
        let before = try #require(residentKilobytes(pid: online.node.pid))
        let peakBefore = try #require(Self.peakKilobytes(pid: online.node.pid))
        let ring = "noiseclock/groups/family/ring"
        // One client sends the messages and then the command, so the broker hands the node all
        // of them before the command: its answer means every one was dealt with.
        let flooder = try await TestClient(port: online.broker.port, subscriptions: ["\(online.root)/response"])
        defer { flooder.shutdown() }
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 20 * 1024 * 1024)
        let started = Date()
        for _ in 0..<3 { flooder.publish(ring, bytes: big) }
        flooder.publish(ring, bytes: [UInt8](repeating: UInt8(ascii: "y"), count: 20 * 1024))
        flooder.publish("\(online.root)/noise/set", #"{"volume": 31, "request_id": "after-flood"}"#)
        let response = try await flooder.waitFor("\(online.root)/response", timeout: 30) { $0.json?["request_id"] == "after-flood" }
        let elapsed = Date().timeIntervalSince(started)
        #expect(response.json?["ok"] == true)
        let drops = online.node.log.split(separator: "\n").filter { $0.contains("MQTT message over its size cap dropped") }
        #expect(drops.count == (protocolVersion == "5" ? 1 : 4), "\(drops)")
        let small = drops.first { $0.contains("bytes=20480") }
        #expect(small?.contains("topic=\(ring)") == true && small?.contains("cap=16384") == true, "\(drops)")
        try await online.client.barrier(online.root)
        let after = try #require(residentKilobytes(pid: online.node.pid))
        let peak = try #require(Self.peakKilobytes(pid: online.node.pid))
        print("""
            oversized messages, MQTT \(protocolVersion): sent and answered in \(Int(elapsed * 1000)) ms, \
            RSS \(before) -> \(after) kB, peak \(peakBefore) -> \(peak) kB
            """)
        #expect(after - before < 8 * 1024, "RSS grew \(after - before) kB")
        // Never held: over MQTT v5 the node never sees them (before the fix: +61 MB at the peak);
        // over 3.1.1 only libmosquitto's own two buffers (the packet, the message) of one message at
        // a time, 40 MB for 20 MB (before the fix, a copy more, and the loop's: +61 MB).
        let allowed = protocolVersion == "5" ? 8 * 1024 : 2 * big.count / 1024 + 4 * 1024
        #expect(peak - peakBefore < allowed, "peak RSS grew \(peak - peakBefore) kB")
        #expect(!online.node.log.contains("group message not followed"))
    }

    /// VmHWM (the peak resident size) of a process in kB, from /proc.
    static func peakKilobytes(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }
}
