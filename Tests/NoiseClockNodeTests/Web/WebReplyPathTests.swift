import Dispatch
import Logging
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import NoiseClockWeb
import Testing
@testable import NoiseClockNode

/// The web app's one way in and one way back: a command goes into the node's inbox as an input,
/// its answer comes back as the loop's `reply` effect (like snapshots and observations), and a
/// command the node will not answer any more is answered `shutting_down`, never left hanging.
/// The real server, inbox and effect performer; the test plays the loop.
@Suite struct WebReplyPathTests {
    struct Rig {
        let inbox = NodeInbox()
        let server: WebServer
        let effects: EffectPerformer
        let port: Int

        init() throws {
            port = try freeLoopbackPort()
            var logger = Logger(label: "web-reply-test")
            logger.logLevel = .critical
            let node = WebStateView.NodeInfo(nodeID: "t", version: "test", timezone: "UTC", locale: "en")
            var options = WebServer.Options(host: "127.0.0.1", port: port, node: node)
            options.bindRetryMilliseconds = 50
            server = WebServer(
                options: options,
                router: WebRouter(gate: AccessGate(token: nil), site: WebSite(files: [:]), locale: "en"),
                backend: InboxWebBackend(inbox: inbox), logger: logger
            )
            let mqtt = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: 1, clientID: "web-reply-test"),
                                      subscriptions: [], logger: logger) { _ in }
            effects = EffectPerformer(mqtt: mqtt, timer: try WakeTimer { _ in }, audio: nil, web: server, logger: logger)
            try server.start()
        }

        /// Started, and listening (the server binds on its own thread): `/healthz` answers. A free
        /// port picked by the kernel is from the ephemeral range, so a client socket of a test
        /// running beside this one may take it before the server binds: then another port.
        static func start() async throws -> Rig {
            var last = "no answer"
            for _ in 0..<5 {
                let rig = try Rig()
                for _ in 0..<40 {
                    do {
                        let reply = try await WebTestClient.request(port: rig.port, "GET", "/healthz")
                        if reply.status == 200 { return rig }
                        last = "status \(reply.status): \(reply.text)"
                    } catch {
                        last = "\(error)"
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await rig.stop()
            }
            throw TestFailure("the web server did not listen on five free ports: \(last)")
        }

        func post(_ command: String, _ body: String) async throws -> WebReply {
            try await WebTestClient.request(port: port, "POST", "/api/" + command, body: body)
        }

        /// The next command the server handed to the inbox (snapshot requests pass by). The inbox
        /// is waited on as the loop's thread does: off the cooperative pool.
        func nextRequest() async throws -> LocalRequest? {
            try await WebTestClient.offload { [inbox] in
                while let item = inbox.next() {
                    if case .input(.request(let request)) = item { return request }
                }
                return nil
            }
        }

        /// `WebServer.stop` joins the server thread: off the cooperative pool.
        func stop() async throws {
            try await WebTestClient.offload { [server] in server.stop() }
        }
    }

    @Test func aCommandGoesInAsAnInputAndItsReplyComesBackAsAnEffect() async throws {
        let rig = try await Rig.start()
        async let answer = rig.post("noise/set", "ON")
        let request = try #require(await rig.nextRequest())
        #expect(request.command == "noise/set")
        #expect(request.payload == Array("ON".utf8))
        let response = Response(command: "noise/set", requestID: nil, outcome: .success(["playing": true]))
        rig.effects.perform([.reply(requestID: request.id, response)])
        let reply = try await answer
        #expect(reply.status == 200)
        #expect(reply.json?["command"] as? String == "noise/set")
        #expect(reply.json?["ok"] as? Bool == true)
        try await rig.stop()
    }

    @Test func aCommandTheNodeTookButDidNotAnswerBeforeStoppingIsAnsweredShuttingDown() async throws {
        let rig = try await Rig.start()
        async let answer = rig.post("alarm/add", #"{"time": "07:00", "request_id": "late"}"#)
        _ = try #require(await rig.nextRequest())
        try await rig.stop()
        let reply = try await answer
        #expect(reply.status == 503)
        #expect(reply.errorCode == "shutting_down")
        #expect(reply.json?["command"] as? String == "alarm/add")
        #expect(reply.json?["request_id"] as? String == "late", "the id the web server read from the body: \(reply.text)")
    }

    /// A name no command table has is answered by the web server, its `request_id` echoed as the
    /// machine echoes an unknown topic's; nothing reaches the node.
    @Test func aNameNoTableHasIsAnswered404WithItsRequestID() async throws {
        let rig = try await Rig.start()
        let reply = try await rig.post("alarm/explode", #"{"request_id": 41}"#)
        #expect(reply.status == 404)
        #expect(reply.errorCode == "unknown_command")
        #expect(reply.json?["command"] as? String == "alarm/explode")
        #expect(reply.json?["request_id"] as? Int == 41, "\(reply.text)")
        let machine = CommandMessage.parse(topic: "alarm/explode", payload: Array(#"{"request_id": 41}"#.utf8))
        guard case .refused(let refusal) = machine else { throw TestFailure("the machine took alarm/explode") }
        #expect(try JSONParser().parse(reply.body) == refusal.json, "the same answer as over MQTT")
        // The next command the node gets is the next one sent: alarm/explode never reached it.
        async let next = rig.post("noise/set", "ON")
        let request = try #require(await rig.nextRequest())
        #expect(request.command == "noise/set")
        rig.effects.perform([.reply(requestID: request.id, Response(command: "noise/set", requestID: nil, outcome: .success(["playing": true])))])
        #expect(try await next.status == 200)
        try await rig.stop()
    }

    @Test func aCommandAfterTheLoopStoppedIsAnsweredShuttingDownAtOnce() async throws {
        let rig = try await Rig.start()
        rig.inbox.finish()
        let reply = try await rig.post("noise/set", "OFF")
        #expect(reply.status == 503)
        #expect(reply.errorCode == "shutting_down")
        try await rig.stop()
    }
}
