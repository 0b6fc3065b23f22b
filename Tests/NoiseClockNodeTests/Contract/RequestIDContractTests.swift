import Foundation
import NoiseClockCore
import Testing

/// Every answer echoes the command's `request_id` (mqtt-api.md "Responses", http-api.md v1.4), for
/// every command of the one table (`CommandName.allCases`: `CommandTopic` and the web app's
/// `WebCommand`, not a list of this test's), with a valid payload (answered `ok`) and an
/// invalid one (refused), over MQTT on `~/response` (the commands with a topic) and over
/// `POST /api/<name>` (all of them). A command added to the table is sent here the day it is
/// added; `ContractExample.of` does not build until it has its payloads. One node answers all of
/// them, one after the other (a few seconds; `restart` last): a lane of its own in the parallel
/// stage, beside the longer `ProofSuite` lanes.
@Suite struct RequestIDContractTests {
    /// A button on a local input device (absent: the node looks for it again, which is all
    /// `buttons/learn` needs), and ALSA's `null` device, which opens, so speech is answered `ok`.
    static let yaml = """
        buttons:
          - id: contract
            input: {device: /nonexistent/noiseclock-contract-event0, key: KEY_ENTER}
        """

    enum Transport: String { case mqtt = "MQTT", http = "HTTP" }

    /// One command to send: a setup step (which must be taken) or an example.
    struct Send {
        /// `valid(answered:)`: an error code the valid payload must be answered with (nil: `ok`).
        enum Role { case setup(of: String), valid(answered: String?), invalid }
        var topic: String
        /// `restart`: answered 202 (its work begins once it is answered).
        var accepted = false
        var id: String
        var payload: String
        var role: Role
    }

    /// Every command's setup, valid and invalid payloads, in the tables' order.
    static func plan(_ transport: Transport, rig: ContractExample.Rig) -> [Send] {
        let tag = transport == .mqtt ? "m" : "h"
        var sends: [Send] = []
        // A command kept off a transport says why in the table (`notOverHTTP`: none today; `notOverMQTT`: the web app's).
        let taken = CommandName.allCases.filter { transport == .mqtt ? $0.notOverMQTT == nil : $0.notOverHTTP == nil }
        for command in taken {
            let example = ContractExample.of(command, tag: tag, rig: rig)
            for (index, (topic, payload)) in example.setup.enumerated() {
                let id = "\(tag)-setup-\(index)-\(command.rawValue)"
                sends.append(Send(topic: topic, id: id, payload: ContractExample.carrying(id, payload), role: .setup(of: command.rawValue)))
            }
            var examples = [(role: Send.Role.valid(answered: example.validAnswered), name: "valid", payload: example.valid)]
            if case .by(let invalid) = example.refused {
                examples.insert((.invalid, "invalid", invalid), at: example.invalidFirst ? 0 : 1)
            }
            let accepted = if case .web(let web) = command { web.answeredBeforeItsWork } else { false }
            for (role, name, payload) in examples {
                let id = "\(tag)-\(command.rawValue)-\(name)"
                sends.append(Send(topic: command.rawValue, accepted: accepted, id: id, payload: ContractExample.carrying(id, payload), role: role))
            }
        }
        return sends
    }

    @Test func everyCommandEchoesItsRequestIDOverMQTTAndHTTP() async throws {
        let rig = try await WebRig.start(environment: ["NOISECLOCK_AUDIO_DEVICE": "null"], yamlExtra: Self.yaml)
        defer { rig.shutdown() }

        // MQTT: all at once. The node takes one client's messages in order, one at a time, so each
        // setup is done before its command; every answer is then looked for by its request_id.
        let sends = Self.plan(.mqtt, rig: ContractExample.Rig(brokerPort: rig.online.broker.port, backup: "{}"))
        let mark = rig.client.messages.count
        for send in sends { rig.client.publish("\(rig.root)/\(send.topic)", send.payload) }
        let responses = try await answers(sends.count, on: "\(rig.root)/response", after: mark, client: rig.client)
        for send in sends {
            guard let answer = responses.first(where: { $0["request_id"] == .string(send.id) }) else {
                let named = responses.filter { $0["command"] == .string(send.topic) }.map(\.serialized)
                Issue.record("request_id not echoed: \(send.topic) over MQTT, \(send.payload); its answers: \(named)")
                continue
            }
            check(answer, status: nil, send, over: .mqtt)
        }

        // HTTP: one request after the other, each answered in its own reply; `restore` takes back
        // the node's own backup, and `restart`, the last, ends the run.
        let backup = try await rig.get("/api/backup")
        #expect(backup.status == 200, "\(backup.text)")
        let overHTTP = Self.plan(.http, rig: ContractExample.Rig(brokerPort: rig.online.broker.port, backup: backup.text))
        #expect(overHTTP.last?.topic == WebCommand.restart.rawValue && overHTTP.last?.id.hasSuffix("-valid") == true,
                "a valid restart ends the run: nothing may come after it")
        let beforeHTTP = rig.client.messages.count
        for send in overHTTP {
            let reply = try await rig.post(send.topic, send.payload)
            check(try JSONParser().parse(reply.body), status: reply.status, send, over: .http)
        }
        // Back online before the rig stops it (a stop in the middle of its re-execution is not what is tested here).
        let availability = "\(rig.root)/availability"
        let offline = try await rig.client.waitFor(availability, timeout: 15, after: beforeHTTP, where: { $0.text == "offline" })
        _ = try await rig.client.waitFor(availability, timeout: 20, after: beforeHTTP, where: { $0.text == "online" && $0.at > offline.at })
    }

    /// Every command with an MQTT topic is also taken under `{base}/all/` (mqtt-api.md: "every command
    /// topic"), the machine's own included: the node subscribes to the table, in one place. Each is
    /// sent with only a `request_id` (taken or refused, either way answered on the node's `~/response`).
    @Test func everyMQTTCommandIsTakenUnderTheGroupTopic() async throws {
        let online = try await OnlineNode.start(environment: ["NOISECLOCK_AUDIO_DEVICE": "null"], yamlExtra: Self.yaml)
        defer { online.shutdown() }
        let commands = CommandName.allCases.filter { $0.notOverMQTT == nil }
        let mark = online.client.messages.count
        for command in commands {
            online.client.publish("noiseclock/all/\(command.rawValue)", #"{"request_id": "group-\#(command.rawValue)"}"#)
        }
        let responses = try await answers(commands.count, on: "\(online.root)/response", after: mark, client: online.client)
        for command in commands {
            let answer = responses.first { $0["request_id"] == .string("group-\(command.rawValue)") }
            #expect(answer?["command"] == .string(command.rawValue), "\(command.rawValue) under noiseclock/all/: not answered")
        }
    }

    func check(_ answer: JSONValue, status: Int?, _ send: Send, over transport: Transport) {
        let said = "\(send.topic) over \(transport.rawValue), \(send.payload) → \(answer.serialized)"
        #expect(answer["request_id"] == .string(send.id), "request_id not echoed: \(said)")
        #expect(answer["command"] == .string(send.topic), "another command's answer: \(said)")
        let valid: Bool
        switch send.role {
        case .setup(let command):
            #expect(answer["ok"] == true, "setup of \(command) refused: \(said)")
            return
        case .valid(let code?):
            #expect(answer["ok"] == false && answer["error"]?["code"] == .string(code), "valid payload not answered \(code): \(said)")
            if let status { #expect(status != 200, "HTTP status \(status): \(said)") }
            return
        case .valid: valid = true
        case .invalid: valid = false
        }
        #expect(answer["ok"] == .bool(valid), "\(valid ? "valid payload refused" : "invalid payload taken"): \(said)")
        if let status {
            #expect(status == (valid ? (send.accepted ? 202 : 200) : 400), "HTTP status \(status): \(said)")
        }
    }

    /// The first `count` messages on `topic` after index `mark`, as JSON, once they have all come.
    func answers(_ count: Int, on topic: String, after mark: Int, client: TestClient) async throws -> [JSONValue] {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let answers = client.messages.dropFirst(mark).filter { $0.topic == topic }
            if answers.count >= count { return answers.compactMap(\.json) }
            try await Task.sleep(for: .milliseconds(10))
        }
        let got = client.messages.dropFirst(mark).filter { $0.topic == topic }
        throw TestFailure("\(got.count) answers on \(topic) of the \(count) commands sent; the last: \(got.suffix(4).map(\.text))")
    }
}
