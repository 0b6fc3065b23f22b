import Foundation
import Synchronization
import Logging
import NoiseClockCore
import NoiseClockMQTT

/// Sends commands to one node as fast as it answers (at most `window` unanswered, so the broker's
/// 1000-message queue never drops anything) and checks, from the order of what the node
/// publishes, that a refused command changed nothing: the node publishes a retained state topic
/// (`alarms`, `style`, `noise`) only when it changes, always before the command's response, so a
/// state message right before a refusal means the refusal changed state.
final class PacedCommander: @unchecked Sendable {
    static let stateTopics = ["alarms", "style", "noise"]

    struct Tally: Sendable {
        var responses = 0
        var ok = 0
        var codes: [String: Int] = [:]
        /// Refusals whose attribution was certain (no timed change could have come in between).
        var refusalsChecked = 0
        var violations: [String] = []
        /// State-topic messages since the last response.
        var pendingChanges: [String] = []
        /// No accepted command since the last reset: nothing can change on its own.
        var calm = true
        var lastReset = Date()
        var latestState: [String: [UInt8]] = [:]
        /// The `request_id` of the latest response.
        var lastRequestID: String?
    }

    let client: MQTTClient
    let root: String
    let window: Int
    /// Shared with the pump task.
    final class Shared: Sendable {
        private let tally = Mutex(Tally())
        func withLock<R>(_ body: (inout Tally) -> R) -> R {
            tally.withLock { body(&$0) }
        }
    }

    private let tally = Shared()
    private var pump: Task<Void, Never>?
    private(set) var sent = 0

    init(port: Int, root: String, window: Int = 50) async throws {
        self.root = root
        self.window = window
        var logger = Logger(label: "paced-commander")
        logger.logLevel = .critical
        let clientID = "hostile-\(UUID().uuidString.prefix(8))"
        let probe = TestClient.probeTopic(clientID)
        let topics = ["\(root)/response"] + Self.stateTopics.map { "\(root)/\($0)" } + [probe]
        let (events, sink) = AsyncStream.makeStream(of: MQTTEvent.self)
        client = try MQTTClient(
            options: MQTTOptions(host: "127.0.0.1", port: port, clientID: clientID, keepaliveSeconds: 30),
            subscriptions: topics, logger: logger
        ) { sink.yield($0) }
        client.start()
        let (connected, signal) = AsyncStream.makeStream(of: Void.self)
        let tally = self.tally
        let responseTopic = "\(root)/response"
        let prefix = "\(root)/"
        pump = Task { [client] in
            for await event in events {
                switch event {
                // Subscribed before `.connected`: the probe comes back once the broker has them all.
                case .connected: client.publish(topic: probe, payload: [], qos: 1, retain: false)
                case .message(let message) where message.topic == probe: signal.yield()
                case .disconnected: break
                case .message(let message):
                    let suffix = String(message.topic.dropFirst(prefix.count))
                    tally.withLock { Self.record(suffix: suffix, message: message, isResponse: message.topic == responseTopic, into: &$0) }
                }
            }
        }
        var iterator = connected.makeAsyncIterator()
        _ = await iterator.next()
        tally.withLock { $0.pendingChanges = [] }
    }

    private static func record(suffix: String, message: MQTTMessage, isResponse: Bool, into tally: inout Tally) {
        guard isResponse else {
            tally.latestState[suffix] = message.payload
            if !message.retain { tally.pendingChanges.append(suffix) }
            return
        }
        tally.responses += 1
        let json = try? JSONParser().parse(message.payload)
        tally.lastRequestID = json?["request_id"]?.stringValue
        if json?["ok"] == .bool(true) {
            tally.ok += 1
            tally.calm = false
        } else {
            let code = json?["error"]?["code"]?.stringValue ?? "unreadable response"
            tally.codes[code, default: 0] += 1
            // Timed changes (a fire, random colour, sleep timer, ring timeout) happen on a minute
            // boundary or at least a minute after the accepted command that set them up.
            let second = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
            let certain = tally.calm || (Date().timeIntervalSince(tally.lastReset) < 50 && second > 1.5 && second < 59)
            if certain {
                tally.refusalsChecked += 1
                if !tally.pendingChanges.isEmpty, tally.violations.count < 20 {
                    let text = String(decoding: message.payload.prefix(300), as: UTF8.self)
                    tally.violations.append("refusal changed \(tally.pendingChanges): \(text)")
                }
            }
        }
        tally.pendingChanges = []
    }

    var snapshot: Tally { tally.withLock { $0 } }

    /// Publishes one message, first waiting until fewer than `window` commands are unanswered.
    func send(topic: String, payload: [UInt8], expectsResponse: Bool) async throws {
        try await waitForResponses(atLeast: sent - window + 1, timeout: 15)
        var attempts = 0
        while !client.publish(topic: topic, payload: payload, qos: 1, retain: false) {
            // An invalid topic (which only odd-topic messages may have) is refused locally, for good.
            if !expectsResponse { return }
            attempts += 1
            if attempts > 500 { throw TestFailure("could not publish to \(topic)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        if expectsResponse { sent += 1 }
    }

    func waitForResponses(atLeast count: Int, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while snapshot.responses < count {
            if Date() > deadline {
                throw TestFailure("only \(snapshot.responses) responses for \(sent) commands after \(timeout) s")
            }
            try await Task.sleep(for: .microseconds(200))
        }
    }

    /// Puts the node where nothing changes on its own (no alarms, no ring, no random colour,
    /// no sleep timer), then marks the checks certain again.
    func calmDown() async throws {
        let commands = [
            ("alarm/dismiss", ""), ("alarms/set", "[]"), ("style/set", #"{"random_color": false}"#), ("noise/sleep_timer/set", "0"),
        ]
        for (command, payload) in commands {
            try await send(topic: "\(root)/\(command)", payload: Array(payload.utf8), expectsResponse: true)
        }
        try await waitForResponses(atLeast: sent, timeout: 15)
        tally.withLock {
            $0.calm = true
            $0.lastReset = Date()
            $0.pendingChanges = []
        }
    }

    /// Waits until the node answers a harmless probe (connected and subscribed), then starts
    /// counting from zero.
    func waitForOnline(node: NodeProcess) async throws {
        let deadline = Date().addingTimeInterval(15)
        var probes = 0
        while snapshot.responses == 0 {
            guard node.isRunning, Date() < deadline else { throw TestFailure("node never answered: \(node.log.suffix(1500))") }
            if client.publish(topic: "\(root)/style/preset", payload: Array("night".utf8), qos: 1, retain: false) { probes += 1 }
            try await Task.sleep(for: .milliseconds(200))
        }
        // Every probe the node got is answered before counting starts. Those sent before it had
        // subscribed are lost, so instead of counting answers, a last command with a request_id
        // is answered after all the others (the node handles commands in order).
        let barrier = #"{"id": "no-such-alarm", "request_id": "online-barrier"}"#
        _ = client.publish(topic: "\(root)/alarm/delete", payload: Array(barrier.utf8), qos: 1, retain: false)
        while snapshot.lastRequestID != "online-barrier" {
            guard node.isRunning, Date() < deadline else { throw TestFailure("node never answered the barrier after \(probes) probes") }
            try await Task.sleep(for: .milliseconds(5))
        }
        tally.withLock { $0 = Tally(latestState: $0.latestState) }
        try await calmDown()
    }

    func shutdown() {
        client.shutdown(finalMessage: nil)
        pump?.cancel()
    }
}
