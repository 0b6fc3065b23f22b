import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// A second command source (the web app) hands a command to the loop and gets its answer back.
@Suite struct NodeInboxTests {
    @Test func aSubmittedCommandIsQueuedAsARequestAndAnsweredByItsReply() async throws {
        let inbox = NodeInbox()
        async let answer = inbox.submit(command: "noise/set", payload: Array("ON".utf8))
        var iterator = inbox.items.makeAsyncIterator()
        guard case .input(.request(let request)) = await iterator.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.command == "noise/set")
        #expect(request.payload == Array("ON".utf8))
        let response = Response(command: "noise/set", requestID: nil, outcome: .success(.bool(true)))
        inbox.reply(request.id, response)
        #expect(await answer == response)
    }

    @Test func requestsStillWaitingWhenTheLoopStopsAreAnsweredNotLeftHanging() async throws {
        let inbox = NodeInbox()
        async let answer = inbox.submit(command: "alarm/add", payload: [])
        var iterator = inbox.items.makeAsyncIterator()
        _ = await iterator.next()
        inbox.finish()
        let response = await answer
        #expect(response.json["error"]?["code"] == "shutting_down")
        // After the end, a new request is refused at once.
        let late = await inbox.submit(command: "noise/set", payload: [])
        #expect(late.json["error"]?["code"] == "shutting_down")
    }
}
