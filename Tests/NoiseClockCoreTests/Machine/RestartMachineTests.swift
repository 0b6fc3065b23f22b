import Testing
@testable import NoiseClockCore

/// `POST /api/restart` in the machine (http-api v1.4): answered with its request id before the
/// restart is asked for; a body that is more than a request id is refused and nothing restarts.
@Suite struct RestartMachineTests {
    static func reply(_ effects: [NodeEffect]) -> (index: Int, response: Response)? {
        for (index, effect) in effects.enumerated() { if case .reply(_, let response) = effect { return (index, response) } }
        return nil
    }

    @Test func answeredWithItsRequestIDThenRestarts() throws {
        var rig = MachineRig()
        rig.step(.connected)
        // The web server reads the body's request_id once (`WebCommandRequest`) and hands it on.
        let body = Array(#"{"request_id": "again"}"#.utf8)
        let effects = rig.step(.restart(LocalRequest(id: 3, command: "restart", payload: body, requestID: CommandPayload.requestID(in: body))))
        let answer = try #require(Self.reply(effects))
        #expect(answer.response.ok && answer.response.requestID == "again")
        #expect(answer.response.json["result"]?["restarting"] == true)
        #expect(effects.firstIndex(of: .restart).map { answer.index < $0 } == true, "the answer goes out before the restart")
        #expect(rig.step(.restart(LocalRequest(id: 4, command: "restart", payload: []))).contains(.restart), "an empty body restarts too")
    }

    @Test(arguments: [#"{"now": true}"#, "soon", "[1]", #"{"request_id": "x""#])
    func anythingElseIsRefusedAndNothingRestarts(_ body: String) throws {
        var rig = MachineRig()
        rig.step(.connected)
        let effects = rig.step(.restart(LocalRequest(id: 5, command: "restart", payload: Array(body.utf8))))
        #expect(try #require(Self.reply(effects)).response.ok == false)
        #expect(!effects.contains(.restart))
    }
}
