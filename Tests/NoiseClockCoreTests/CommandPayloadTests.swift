import Testing
@testable import NoiseClockCore

@Suite struct CommandPayloadTests {
    @Test(arguments: [
        ("", CommandPayload.empty),
        ("  \n", .empty),
        (" ON ", .plain("ON")),
        ("40", .plain("40")),
        ("{\"id\":\"x\"}", .json(["id": "x"])),
        ("[]", .json([])),
        ("\"abc\"", .json("abc")),
    ])
    func classifies(text: String, expected: CommandPayload) throws {
        #expect(try CommandPayload.classify(Array(text.utf8)) == expected)
    }

    @Test func refusesOversizedPayloads() {
        let big = [UInt8](repeating: 0x20, count: CommandPayload.maxBytes + 1)
        #expect(throws: CommandError(.payloadTooLarge, "payload is 65537 bytes; the limit is 65536")) {
            try CommandPayload.classify(big)
        }
    }

    @Test(arguments: [[0xFF, 0xFE], [0x7B, 0xC3], Array("{\"a\":".utf8)])
    func refusesBadBytesAsInvalidJSON(bytes: [UInt8]) {
        do {
            _ = try CommandPayload.classify(bytes)
            Issue.record("accepted \(bytes)")
        } catch {
            #expect(error.code == .invalidJSON)
        }
    }

    @Test func echoesRequestID() throws {
        let payload = try CommandPayload.classify(Array("{\"request_id\":\"r1\",\"minutes\":5}".utf8))
        #expect(payload.requestID == "r1")
        #expect(try CommandPayload.classify(Array("{\"request_id\":[1]}".utf8)).requestID == nil)
    }

    @Test func parsesIDsInBothForms() throws {
        #expect(try CommandPayload.plain("abc").id(for: AlarmCommand.delete) == "abc")
        #expect(try CommandPayload.json(["id": "abc"]).id(for: AlarmCommand.delete) == "abc")
        #expect(throws: CommandError.self) { try CommandPayload.json(["id": 5]).id(for: AlarmCommand.delete) }
        #expect(throws: CommandError.self) { try CommandPayload.empty.id(for: AlarmCommand.delete) }
    }

    @Test func unknownTopicsAreAnswered() {
        guard case .refused(let response) = CommandMessage.parse(topic: "alarm/explode", payload: Array("{\"request_id\":7}".utf8)) else {
            Issue.record("unknown topic accepted")
            return
        }
        #expect(response.requestID == .int(7))
        #expect(response.json["error"]?["code"] == "unknown_command")
    }
}
