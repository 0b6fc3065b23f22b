import Foundation
import NoiseClockCore
import Testing

/// The HTTP API (http-api.md "API") against the real node and a real broker.
@Suite("Web API") struct WebAPITests {
    static let commands: [(String, String)] = [
        ("alarm/add", #"{"id": "work", "time": "06:30", "label": "Work", "repeat": "weekdays"}"#),
        ("alarm/add", #"{"id": "work", "time": "07:00"}"#),
        ("alarm/update", #"{"id": "work", "volume": 120}"#),
        ("alarm/update", #"{"id": "work", "volume": 65, "snooze_minutes": 5}"#),
        ("noise/volume/set", "55"),
        ("noise/sound/set", "pink"),
        ("noise/sound/set", "no-such-sound"),
        ("style/set", ##"{"digit_color": "#FF8800", "show_seconds": false}"##),
        ("alarm/disable", #"{"id": "work"}"#),
        ("alarm/delete", #"{"id": "missing"}"#),
        ("alarm/add", "{"),
    ]

    @Test("the same commands over MQTT and over HTTP give the same responses and the same state")
    func oneCommandPath() async throws {
        let overMQTT = try await WebRig.start()
        defer { overMQTT.shutdown() }
        let overHTTP = try await WebRig.start()
        defer { overHTTP.shutdown() }

        var mqttResponses: [JSONValue] = []
        for (topic, body) in Self.commands {
            let mark = overMQTT.client.messages.count
            overMQTT.client.publish("\(overMQTT.root)/\(topic)", body)
            let response = try await overMQTT.client.waitFor("\(overMQTT.root)/response", after: mark)
            mqttResponses.append(try #require(response.json))
        }
        var httpResponses: [JSONValue] = []
        for (topic, body) in Self.commands {
            let reply = try await overHTTP.post(topic, body)
            let json = try JSONParser().parse(reply.body)
            httpResponses.append(json)
            let ok = json["ok"] == .bool(true)
            let code = json["error"]?["code"]
            #expect(reply.status == (ok ? 200 : code == .string("unknown_command") ? 404 : 400), "\(topic) \(body)")
        }
        #expect(mqttResponses == httpResponses)
        #expect(mqttResponses.contains { $0["ok"] == .bool(false) } && mqttResponses.contains { $0["ok"] == .bool(true) })

        func comparable(_ rig: WebRig) async throws -> JSONValue {
            guard case .object(var object) = try JSONParser().parse(try await rig.get("/api/state").body) else { throw TestFailure("not an object") }
            object["time"] = nil
            // When each process started is its own fact, as the time is, not a command's effect.
            if case .object(var node)? = object["node"] {
                node["started_ms"] = nil
                object["node"] = .object(node)
            }
            // Each node checks its readiness at its own moment: what it found is compared, not when.
            if case .object(var alarm)? = object["alarm"], case .object(var ready)? = alarm["ready"] {
                ready["checked_at"] = nil
                alarm["ready"] = .object(ready)
                object["alarm"] = .object(alarm)
            }
            return .object(object)
        }
        let mqttState = try await comparable(overMQTT)
        #expect(mqttState == (try await comparable(overHTTP)))
        #expect(mqttState["noise"]?["volume"] == .int(55))
        guard case .array(let alarms)? = mqttState["alarms"] else { throw TestFailure("no alarms") }
        #expect(alarms.first?["enabled"] == .bool(false))
    }

    @Test("/api/state holds every retained topic, the time now and the node's facts")
    func state() async throws {
        // Whole seconds: `epoch` is the second the node last published `~/time`, at its start or
        // at a minute since, so between the rig's start and the answer (however loaded the machine).
        let started = Date().timeIntervalSince1970.rounded(.down)
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let reply = try await rig.get("/api/state")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        let json = try #require(reply.json)
        for key in ["availability", "alarms", "alarm", "noise", "style", "sounds", "battery", "time", "node"] {
            #expect(json[key] != nil, "\(key)")
        }
        #expect(json["availability"] as? String == "online")
        let time = try #require(json["time"] as? [String: Any])
        let epoch = try #require(time["epoch"] as? Int)
        #expect((started...Date().timeIntervalSince1970).contains(Double(epoch)), "epoch \(epoch), rig started at \(started)")
        #expect((json["node"] as? [String: Any])?["node_id"] as? String == rig.node.nodeID)
    }

    @Test("an HTTP command is published like an MQTT one, but its response is not on ~/response")
    func publishedNotResponded() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let mark = rig.client.messages.count
        #expect(try await rig.post("noise/volume/set", "33").status == 200)
        try await rig.client.waitFor("\(rig.root)/noise", after: mark, where: { $0.json?["volume"] == .int(33) })
        try await rig.client.barrier(rig.root)
        let responses = rig.client.messages.dropFirst(mark).filter { $0.topic == "\(rig.root)/response" }
        #expect(responses.count == 1)
        #expect(responses.allSatisfy { $0.json?["command"] == .string("alarm/delete") })
    }

    @Test("the event stream starts with the state now, then carries every publication")
    func eventStream() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let stream = try await rig.events()
        #expect(stream.status == 200)
        var first: [String] = []
        while first.last != "time" {
            let event = try #require(try await stream.next(timeout: 5))
            first.append(event.name)
        }
        for name in ["availability", "alarms", "alarm", "noise", "style", "sounds", "battery"] { #expect(first.contains(name), "\(name)") }
        #expect(first.first == "availability")

        _ = try await rig.post("style/set", ##"{"digit_color": "#00FF00"}"##)
        let style = try await stream.waitFor("style", where: { $0.contains("#00FF00") })
        #expect(!style.data.contains("\n"))
        try await rig.ringTestAlarm()
        _ = try await stream.waitFor("alarm/event", where: { $0.contains("\"fired\"") })
        _ = try await stream.waitFor("alarm", where: { $0.contains("ringing") })
        _ = try await stream.waitFor("response", where: { $0.contains("alarm/test") })
    }

    @Test("paths and bodies that are no command get clear errors", arguments: [
        ("POST", "/api/no/such/command", "{}", 404, "unknown_command"),
        ("GET", "/api/alarm/add", "", 404, "unknown_command"),
        ("PUT", "/api/alarm/add", "{}", 405, "method_not_allowed"),
        ("POST", "/api/state", "{}", 405, "method_not_allowed"),
        ("POST", "/api/alarm/add", "{not json", 400, "invalid_json"),
        ("POST", "/api/noise/volume/set", "101", 400, "invalid_field"),
    ])
    func badRequests(method: String, path: String, body: String, status: Int, code: String) async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let reply = try await WebTestClient.request(port: rig.port, method, path, headers: rig.bearer, body: body.isEmpty ? nil : body)
        #expect(reply.status == status)
        #expect(reply.errorCode == code)
    }
}
