import Testing
@testable import NoiseClockCore

/// Issue 31, findings 7 and 8, in the core: a cap for every topic the node subscribes to, and
/// log text that stays one line with no terminal sequence.
@Suite struct InboundLimitsTests {
    @Test func everySubscribedTopicHasACap() {
        let topics = TopicScheme(base: "noiseclock", nodeID: "bed")
        let limits = InboundLimits(topics: topics, discovery: DiscoverySettings(enabled: true, prefix: "homeassistant"))
        for command in topics.commandSubscriptions {
            #expect(limits.cap(for: command) == InboundLimits.command, "\(command)")
        }
        #expect(limits.cap(for: "noiseclock/all/alarm/dismiss") == InboundLimits.command)
        #expect(limits.cap(for: "homeassistant/sensor/bed/battery/config") == InboundLimits.discoveryConfig)
        for other in ["noiseclock/groups/family/ring", "homeassistant/status", "zigbee2mqtt/bedroom_lamp", "zigbee2mqtt/button"] {
            #expect(limits.cap(for: other) == InboundLimits.other, "\(other)")
        }
        #expect(InboundLimits.command.answered && !InboundLimits.other.answered && !InboundLimits.discoveryConfig.answered)
        #expect(InboundLimits.command.bytes == 65536 && InboundLimits.other.bytes == 16384)
        #expect(InboundLimits.maximumPacketBytes > InboundLimits.discoveryConfig.bytes)
    }

    /// A command over its cap arrives with its size only, and is answered as one over 64 KiB is.
    @Test func anOversizedCommandIsAnsweredPayloadTooLarge() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let message = InboundMessage(topic: "noiseclock/bed/say", payload: [], oversizeBytes: 20_000_000)
        let response = try #require(rig.step(.message(message)).json("noiseclock/bed/response"))
        #expect(response["command"] == "say" && response["error"]?["code"] == "payload_too_large")
        #expect(response["error"]?["message"] == "payload is 20000000 bytes; the limit is 65536")
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("a\nb", "a\\nb"),
        ("\n[forged] \u{1B}[31mred", "\\n[forged] \\u{1B}[31mred"),
        ("cr\r\ttab", "cr\\r\\ttab"),
        ("nul\u{0}del\u{7F}c1\u{9B}ls\u{2028}", "nul\\u{0}del\\u{7F}c1\\u{9B}ls\\u{2028}"),
        ("한글 é 👩‍👩", "한글 é 👩‍👩"),
    ])
    func logTextIsOneLineWithoutTerminalSequences(text: String, logged: String) {
        let escaped = LogText.escaped(text)
        #expect(escaped == logged)
        #expect(!escaped.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }
}
