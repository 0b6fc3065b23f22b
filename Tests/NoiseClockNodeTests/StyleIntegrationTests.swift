import Foundation
import NoiseClockCore
import Testing

/// `style/set` and `style/preset` over a real broker and node: round trips on `~/style` and
/// `~/response`, refusals that change nothing, and no re-publish when nothing changes.
struct StyleIntegrationTests {
    /// The node's retained `~/style` after message index `after`.
    static func style(_ client: TestClient, _ root: String, after: Int) async throws -> JSONValue {
        try #require(try await client.waitFor("\(root)/style", after: after).json)
    }

    /// Sends a command and returns its response and the message index it arrived at.
    static func send(_ client: TestClient, _ root: String, _ topic: String, _ payload: String) async throws -> (response: JSONValue, index: Int) {
        let mark = client.messages.count
        client.publish("\(root)/\(topic)", payload)
        let response = try await client.waitFor("\(root)/response", after: mark)
        let index = client.messages.firstIndex { $0.topic == "\(root)/response" && $0.at == response.at } ?? mark
        return (try #require(response.json), index)
    }

    @Test func setPartialBadAndPresetRoundTrip() async throws {
        let online = try await OnlineNode.start()
        defer { online.shutdown() }
        let (broker, node, client, root) = (online.broker, online.node, online.client, online.root)
        let initial = try await Self.style(client, root, after: 0)
        #expect(initial["digit_color"] == "#FFFFFF" && initial["use_24_hour"] == true && initial["contrast_ratio"]?.doubleValue == 21)

        // A set of several fields: colours normalised to #RRGGBB, everything else as given.
        var mark = client.messages.count
        let set = try await Self.send(client, root, "style/set",
            ##"{"request_id": "s1", "digit_color": "#f80", "glow": 20, "font_family": "monaco", "font_weight": "bold", "font_design": "rounded", "##
                + ##""show_date": false}"##)
        #expect(set.response["ok"] == true && set.response["request_id"] == "s1")
        var published = try await Self.style(client, root, after: mark)
        #expect(published == set.response["result"])
        for (key, value) in [("digit_color", "#FF8800"), ("font_family", "monaco"), ("font_weight", "bold"),
            ("font_design", "rounded")] as [(String, JSONValue)] {
            #expect(published[key] == value, "\(key)")
        }
        #expect(published["glow"] == 20 && published["show_date"] == false && published["background_color"] == "#000000")
        let saved = try String(contentsOf: node.stateDirectory.appendingPathComponent("style.json"), encoding: .utf8)
        #expect(saved.contains("#FF8800"), "style.json: \(saved)")

        // A partial set changes only its field.
        mark = client.messages.count
        _ = try await Self.send(client, root, "style/set", ##"{"glow": 70}"##)
        published = try await Self.style(client, root, after: mark)
        #expect(published["glow"] == 70 && published["digit_color"] == "#FF8800" && published["font_family"] == "monaco")

        // One bad field refuses the whole command, names the field, and changes nothing.
        let bad: [(payload: String, field: String)] = [
            (##"{"glow": 30, "font_weight": "extra_bold"}"##, "font_weight"),
            (##"{"digit_color": "#12"}"##, "digit_color"),
            (##"{"scale": 101}"##, "scale"),
            (##"{"show_seconds": "yes"}"##, "show_seconds"),
            (##"{"sparkle": true}"##, "sparkle"),
        ]
        mark = client.messages.count
        for entry in bad {
            let refused = try await Self.send(client, root, "style/set", entry.payload).response
            #expect(refused["ok"] == false)
            #expect(refused["error"]?["code"] == "invalid_field", "\(entry.payload)")
            #expect(refused["error"]?["field"] == .string(entry.field), "\(entry.payload): \(refused)")
        }
        let badPreset = try await Self.send(client, root, "style/preset", "dusk").response
        #expect(badPreset["error"]?["field"] == "preset")

        // The same values again: answered, but neither published nor written.
        let modified = try FileManager.default.attributesOfItem(
            atPath: node.stateDirectory.appendingPathComponent("style.json").path)[.modificationDate] as? Date
        let same = try await Self.send(client, root, "style/set", ##"{"glow": 70, "digit_color": "#FF8800"}"##).response
        #expect(same["ok"] == true && same["result"]?["glow"] == 70)
        try await client.barrier(root)
        #expect(client.messages.dropFirst(mark).filter { $0.topic == "\(root)/style" }.isEmpty, "~/style re-published without a change")
        let stillModified = try FileManager.default.attributesOfItem(
            atPath: node.stateDirectory.appendingPathComponent("style.json").path)[.modificationDate] as? Date
        #expect(modified == stillModified)

        // A preset sets the two colours and leaves the rest.
        mark = client.messages.count
        let preset = try await Self.send(client, root, "style/preset", " DAY ").response
        #expect(preset["ok"] == true)
        published = try await Self.style(client, root, after: mark)
        #expect(published["digit_color"] == "#000000" && published["background_color"] == "#FFFFFF" && published["glow"] == 70)
        #expect(published["warnings"] == [])

        // A poor contrast is published with a warning.
        mark = client.messages.count
        _ = try await Self.send(client, root, "style/set", ##"{"digit_color": "#777", "background_color": "#fff"}"##)
        published = try await Self.style(client, root, after: mark)
        #expect(published["contrast_ratio"]?.doubleValue == 4.48)
        #expect(published["warnings"]?.arrayValue?.count == 1)

        // A late subscriber gets the latest style, retained.
        let late = try await TestClient(port: broker.port, subscriptions: ["\(root)/style"])
        defer { late.shutdown() }
        let retained = try await late.waitFor("\(root)/style")
        #expect(retained.retain && retained.json == published)
    }
}
