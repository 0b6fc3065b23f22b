import Testing
@testable import NoiseClockCore

/// Issue 27's visible bug: the commands answered later (speech, learn, check) echo the command's
/// `request_id`, valid payload or not, now or when the answer comes.
@Suite struct DeferredReplyTests {
    static let input = ButtonDefinition(id: "top", source: .input(device: "/dev/input/event0", key: InputKey(code: 28)))

    static func rig(buttons: [ButtonDefinition] = []) -> MachineRig {
        var rig = MachineRig()
        let core = rig.machine.core
        rig.machine = NodeMachine(
            core: core, topics: MachineRig.topics, discovery: rig.machine.discovery, persisted: core.persistentState(), seed: 1,
            buttons: ButtonBoard(definitions: buttons))
        rig.step(.connected)
        rig.step(.readiness(ReadinessReport(clockSynced: true)))
        return rig
    }

    /// The answer, now or once the adapter reported (speech spoken, readiness checked).
    static func answer(_ rig: inout MachineRig, _ topic: String, _ payload: String) -> JSONValue? {
        let effects = rig.command(topic, payload)
        if let now = effects.json("noiseclock/bed/response") { return now }
        for effect in effects {
            if case .speak(let request) = effect {
                return rig.step(.spoken(SpeechOutcome(id: request.id, result: .success(1)))).json("noiseclock/bed/response")
            }
            if case .checkReadiness = effect {
                return rig.step(.readiness(ReadinessReport(clockSynced: true))).json("noiseclock/bed/response")
            }
        }
        return nil
    }

    @Test(arguments: [
        ("say", #"{"text": "Good night", "request_id": "abc"}"#, true),
        ("say", #"{"text": "\#(String(repeating: "x", count: 301))", "request_id": "abc"}"#, false),
        ("say", #"{"text": "Hi", "volume": 101, "request_id": "abc"}"#, false),
        ("speak/time", #"{"request_id": "abc"}"#, true),
        ("speak/time", #"{"request_id": "abc", "now": true}"#, false),
        ("speak/next_alarm", #"{"request_id": "abc"}"#, true),
        ("speak/next_alarm", #"{"request_id": "abc", "label": "x"}"#, false),
        ("buttons/learn", #"{"request_id": "abc"}"#, true),
        ("buttons/learn", #"{"request_id": "abc", "seconds": 5}"#, false),
        ("alarm/check", #"{"request_id": "abc"}"#, true),
        ("alarm/check", #"{"request_id": "abc", "now": true}"#, false),
    ])
    func everyDeferredAnswerEchoesTheRequestID(topic: String, payload: String, ok: Bool) throws {
        var rig = Self.rig(buttons: [Self.input])
        let response = try #require(Self.answer(&rig, topic, payload), "\(topic) was not answered")
        #expect(response["request_id"] == "abc", "\(topic) \(payload) → \(response.serialized)")
        #expect(response["command"] == .string(topic))
        #expect(response["ok"] == .bool(ok), "\(response.serialized)")
    }

    /// Refused for a reason other than the payload (learn with no input device, speech off) and
    /// a number as request id: still echoed.
    @Test func refusalsOfAValidPayloadEchoToo() throws {
        var rig = Self.rig()
        let learn = try #require(Self.answer(&rig, "buttons/learn", #"{"request_id": 7}"#))
        #expect(learn["request_id"] == 7 && learn["error"]?["code"] == "not_found")
        rig.step(.audio(AudioStatus(device: "hw:0", state: .unavailable, error: "gone")))
        let say = try #require(Self.answer(&rig, "say", #"{"text": "Hi", "request_id": 7}"#))
        #expect(say["request_id"] == 7 && say["error"]?["code"] == "audio_unavailable")
    }

    /// A retained command is refused before it is run; its request id is still echoed.
    @Test func aRetainedCommandsRefusalEchoesItsRequestID() throws {
        var rig = Self.rig()
        let response = try #require(rig.command("say", #"{"text": "Hi", "request_id": "r"}"#, retain: true).json("noiseclock/bed/response"))
        #expect(response["request_id"] == "r" && response["error"]?["field"] == "retain")
    }
}
