import Foundation
import NoiseClockCore
import Testing

/// Every answer echoes the command's `request_id` (mqtt-api.md "Responses"), for every command of
/// the topic tables (`NodeCommand.allCases`: `CommandTopic` and `MachineCommand`, not a list of
/// this test's), with a valid payload (answered `ok`) and an invalid one (refused), over MQTT on
/// `~/response` and over `POST /api/<topic>`. A command added to the tables is sent here the day it
/// is added; `ContractExample.of` does not build until it has its payloads. One node answers all of
/// them, one after the other (a few seconds): a lane of its own in the parallel stage, beside the
/// longer `ProofSuite` lanes.
@Suite struct RequestIDContractTests {
    /// A button on a local input device (absent: the node looks for it again, which is all
    /// `buttons/learn` needs), and ALSA's `null` device, which opens, so speech is answered `ok`.
    static let yaml = """
        buttons:
          - id: contract
            input: {device: /nonexistent/noiseclock-contract-event0, key: KEY_ENTER}
        """

    enum Transport: String { case mqtt = "MQTT", http = "HTTP" }

    @Test func everyCommandEchoesItsRequestIDOverMQTTAndHTTP() async throws {
        let rig = try await WebRig.start(environment: ["NOISECLOCK_AUDIO_DEVICE": "null"], yamlExtra: Self.yaml)
        defer { rig.shutdown() }
        for transport in [Transport.mqtt, .http] {
            let tag = transport == .mqtt ? "m" : "h"
            for command in NodeCommand.allCases {
                // A command kept off HTTP says why in the table (`NodeCommand.notOverHTTP`; none today).
                if transport == .http, command.notOverHTTP != nil { continue }
                let example = ContractExample.of(command, tag: tag)
                for (index, (topic, payload)) in example.setup.enumerated() {
                    let id = "\(tag)-setup-\(index)-\(topic)"
                    let answer = try await send(topic, ContractExample.carrying(id, payload), over: transport, rig: rig)
                    try #require(answer.json["ok"] == true, "setup of \(command.topic): \(topic) \(payload) → \(answer.json.serialized)")
                }
                var sends = [(valid: true, payload: example.valid)]
                if case .by(let invalid) = example.refused { sends.append((false, invalid)) }
                for (valid, body) in sends {
                    let id = "\(tag)-\(command.topic)-\(valid ? "valid" : "invalid")"
                    let payload = ContractExample.carrying(id, body)
                    let answer = try await send(command.topic, payload, over: transport, rig: rig)
                    let said = "\(command.topic) over \(transport.rawValue), \(payload) → \(answer.json.serialized)"
                    #expect(answer.json["request_id"] == .string(id), "request_id not echoed: \(said)")
                    #expect(answer.json["ok"] == .bool(valid), "\(valid ? "valid payload refused" : "invalid payload taken"): \(said)")
                    if let status = answer.status {
                        #expect(status == (valid ? 200 : 400), "HTTP status \(status): \(said)")
                    }
                }
            }
        }
    }

    /// Sends one command and returns its answer: over MQTT the next response on `~/response` that
    /// names the command (commands are answered in order, one at a time here), over HTTP the reply
    /// and its status.
    func send(_ topic: String, _ payload: String, over transport: Transport, rig: WebRig) async throws -> (json: JSONValue, status: Int?) {
        switch transport {
        case .mqtt:
            let mark = rig.client.messages.count
            rig.client.publish("\(rig.root)/\(topic)", payload)
            let answer = try await rig.client.waitFor("\(rig.root)/response", after: mark) { $0.json?["command"] == .string(topic) }
            return (try #require(answer.json), nil)
        case .http:
            let reply = try await rig.post(topic, payload)
            return (try JSONParser().parse(reply.body), reply.status)
        }
    }
}
