import Foundation
import Logging
import NoiseClockCore
import NoiseClockMQTT
import Synchronization

/// A real MQTT client for tests: records every message on the topics it subscribes to and
/// waits for the ones a test expects.
final class TestClient: @unchecked Sendable {
    struct Received: Sendable {
        let topic: String
        let payload: [UInt8]
        let retain: Bool
        var correlationData: [UInt8]? = nil
        let at: Date
        var text: String { String(decoding: payload, as: UTF8.self) }
        var json: JSONValue? { try? JSONParser().parse(payload) }
    }

    let client: MQTTClient
    /// Shared with the pump task, hence a class around the mutex.
    final class Log: Sendable {
        let items = Mutex<[Received]>([])
        func withLock<R>(_ body: (inout [Received]) -> R) -> R { items.withLock { body(&$0) } }
    }

    private let received = Log()
    private var pump: Task<Void, Never>?

    init(port: Int, subscriptions: [String], clientID: String = "test-\(UUID().uuidString.prefix(8))") async throws {
        var logger = Logger(label: "test-client")
        logger.logLevel = .critical
        client = try MQTTClient(
            options: MQTTOptions(host: "127.0.0.1", port: port, clientID: clientID, keepaliveSeconds: 10),
            subscriptions: subscriptions, logger: logger
        )
        client.start()
        let stream = client.events
        let received = self.received
        let connected = AsyncStream.makeStream(of: Void.self)
        pump = Task {
            for await event in stream {
                switch event {
                case .message(let message):
                    received.withLock {
                        $0.append(Received(topic: message.topic, payload: message.payload, retain: message.retain,
                                           correlationData: message.correlationData, at: Date()))
                    }
                case .connected: connected.continuation.yield()
                case .disconnected: break
                }
            }
        }
        var iterator = connected.stream.makeAsyncIterator()
        _ = await iterator.next()
        // Give the broker a moment to register the subscriptions made in the connect callback.
        try await Task.sleep(for: .milliseconds(100))
    }

    func publish(_ topic: String, _ text: String, retain: Bool = false) {
        client.publish(topic: topic, payload: Array(text.utf8), qos: 1, retain: retain)
    }

    func publish(_ topic: String, bytes: [UInt8]) {
        client.publish(topic: topic, payload: bytes, qos: 1, retain: false)
    }

    var messages: [Received] { received.withLock { $0 } }

    func messages(on topic: String) -> [Received] { messages.filter { $0.topic == topic } }

    func clear() { received.withLock { $0.removeAll() } }

    /// Waits for a message on `topic` matching `predicate`, received after index `after`.
    @discardableResult
    func waitFor(_ topic: String, timeout: Double = 5, after: Int = 0, where predicate: @Sendable (Received) -> Bool = { _ in true }) async throws -> Received {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = messages
            if let match = all.dropFirst(after).first(where: { $0.topic == topic && predicate($0) }) { return match }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("no message on \(topic) within \(timeout) s; saw: \(messages.suffix(8).map { "\($0.topic) \($0.text.prefix(160))" })")
    }

    func shutdown() {
        client.shutdown(finalMessage: nil)
        pump?.cancel()
    }

    deinit { pump?.cancel() }
}
