import Testing
@testable import NoiseClockCore

/// The typed owners of the machine's own features: the speaker (numbering, refusals, answers,
/// `~/speech`), the waiting `alarm/check`s and learning buttons.
@Suite struct MachineFeaturesTests {
    static let origin = CommandOrigin.local(9)

    @Test func speakerRefusesWhenOffOrDeafAndNumbersItsUtterances() {
        var speaker = Speaker(settings: SpeechSettings(volume: 60))
        #expect(speaker.refusal(audio: nil) == nil)
        #expect(speaker.refusal(audio: AudioStatus(device: "hw:0", state: .ok)) == nil)
        #expect(speaker.refusal(audio: AudioStatus(device: "hw:0", state: .unavailable, error: "busy"))?.code == .audioUnavailable)
        #expect(Speaker(settings: SpeechSettings(enabled: false)).refusal(audio: nil)?.code == .speechUnavailable)
        #expect(speaker.utter("one") == SpeechRequest(id: 1, text: "one", volume: 60))
        #expect(speaker.utter("two", volume: 20) == SpeechRequest(id: 2, text: "two", volume: 20))
    }

    @Test func speakerAnswersTheWaitingCommandOnceAndFollowsEachOutcome() throws {
        var speaker = Speaker(settings: SpeechSettings(voice: "ko"))
        let reply = DeferredReply(command: "say", requestID: "abc", origin: Self.origin)
        let request = speaker.utter("안녕", answering: reply)
        let silent = speaker.utter("ring")
        // An utterance nobody waits for only moves `~/speech`.
        let unanswered = speaker.spoken(SpeechOutcome(id: silent.id, result: .failure(SpeechFailure("no voice"))))
        #expect(unanswered == nil)
        #expect(speaker.status == SpeechStatus(voice: "ko", error: "no voice"))
        let spoken = speaker.spoken(SpeechOutcome(id: request.id, result: .success(1.23456)))
        let answer = try #require(spoken)
        #expect(answer.origin == Self.origin && speaker.status.error == nil)
        #expect(answer.response.json == ["command": "say", "ok": true, "request_id": "abc", "result": ["text": "안녕", "seconds": 1.23]])
        // Answered once: the same outcome again finds nobody waiting.
        let again = speaker.spoken(SpeechOutcome(id: request.id, result: .success(1)))
        #expect(again == nil)
        let failing = speaker.utter("x", answering: reply)
        let failed = speaker.spoken(SpeechOutcome(id: failing.id, result: .failure(SpeechFailure("eSpeak NG died"))))
        let refused = try #require(failed)
        #expect(refused.response.outcome == .failure(CommandError(.speechUnavailable, "eSpeak NG died")))
    }

    @Test func waitingChecksAreAllAnsweredByOneReport() {
        var checks = ReadinessWaiters()
        let none = checks.answer(.null)
        #expect(!checks.anyWaiting && none.isEmpty)
        checks.wait(DeferredReply(command: "alarm/check", requestID: 1, origin: Self.origin))
        checks.wait(DeferredReply(command: "alarm/check", requestID: nil, origin: .local(10)))
        #expect(checks.anyWaiting)
        let answers = checks.answer(["ok": true])
        #expect(answers.map(\.response.requestID) == [1, nil] && answers.map(\.origin) == [Self.origin, .local(10)])
        #expect(answers.allSatisfy { $0.response.outcome == .success(["ok": true]) })
        #expect(!checks.anyWaiting)
    }

    @Test func learningNeedsALocalDeviceAndAnEmptyPayload() {
        func learn(_ payload: CommandPayload) -> Result<JSONValue, CommandError> {
            var output = FeatureOutput()
            do throws(CommandError) {
                return .success(try ButtonBoard.apply(.learn, payload, output: &output))
            } catch {
                return .failure(error)
            }
        }
        #expect(learn(.empty) == .success(["seconds": 30]))
        #expect(learn(.json(["request_id": "x"])) == .success(["seconds": 30]))
        #expect(learn(.json(["seconds": 5])) == .failure(CommandError(.invalidField, "buttons/learn takes an empty payload")))
        let local = ButtonBoard(definitions: [ButtonDefinition(id: "top", source: .input(device: "/dev/input/event0", key: InputKey(code: 28)))])
        #expect(local.learnRefusal(device: nil, overMQTT: true) == nil)
        #expect(ButtonBoard().learnRefusal(device: nil, overMQTT: false)?.code == .notFound)
        #expect(ButtonBoard().learnRefusal(device: "/dev/input/event3", overMQTT: false) == nil)
        #expect(local.learnRefusal(device: "/dev/input/event3", overMQTT: true)?.field == "device")
    }
}
