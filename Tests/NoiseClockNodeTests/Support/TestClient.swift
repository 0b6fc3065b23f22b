import Foundation
import Logging
import NoiseClockCore
import NoiseClockMQTT
import Synchronization

/// A real MQTT client for tests: records every message on the topics it subscribes to and
/// waits for the ones a test expects.
final class TestClient: ReceivingClient, @unchecked Sendable {
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

    /// `protocolVersion`: 3.1.1 for brokers that speak nothing newer (RabbitMQ 3.10).
    init(port: Int, subscriptions: [String], clientID: String = "test-\(UUID().uuidString.prefix(8))",
         protocolVersion: MQTTOptions.ProtocolVersion = .v5, connectTimeout: Double = 30) async throws {
        var logger = Logger(label: "test-client")
        logger.logLevel = .critical
        let probe = TestClient.probeTopic(clientID)
        let (stream, events) = AsyncStream.makeStream(of: MQTTEvent.self)
        client = try MQTTClient(
            options: MQTTOptions(host: "127.0.0.1", port: port, clientID: clientID, keepaliveSeconds: 10, protocolVersion: protocolVersion),
            subscriptions: subscriptions + [probe], logger: logger
        ) { events.yield($0) }
        client.start()
        let received = self.received
        let connected = AsyncStream.makeStream(of: Void.self)
        let mqtt = client
        pump = Task {
            for await event in stream {
                switch event {
                case .message(let message) where message.topic == probe:
                    connected.continuation.yield()
                case .message(let message):
                    received.withLock {
                        $0.append(Received(topic: message.topic, payload: message.payload, retain: message.retain,
                                           correlationData: message.correlationData, at: Date()))
                    }
                case .connected:
                    // Subscribed before `.connected`; the broker handles one client's packets in
                    // order, so the probe comes back only once every subscription is in place.
                    mqtt.publish(topic: probe, payload: [], qos: 1, retain: false)
                case .disconnected: break
                }
            }
        }
        // Bounded: a broker that accepts the connection but never answers (a RabbitMQ node still
        // starting its MQTT listener) fails the test with a message instead of hanging the stage.
        // The probe is sent again every 2 s meanwhile: one lost by a broker (a RabbitMQ node
        // routing it while the subscription settles) must not leave the test waiting forever.
        let deadline = Task {
            let end = Date().addingTimeInterval(connectTimeout)
            while Date() < end, !Task.isCancelled {
                try? await Task.sleep(for: .seconds(min(2, max(0, end.timeIntervalSinceNow))))
                if !Task.isCancelled { mqtt.publish(topic: probe, payload: [], qos: 1, retain: false) }
            }
            connected.continuation.finish()
        }
        var iterator = connected.stream.makeAsyncIterator()
        let came = await iterator.next() != nil
        deadline.cancel()
        guard came else {
            shutdown()
            throw TestFailure("no MQTT connection with its subscriptions on port \(port) within \(connectTimeout) s")
        }
    }

    /// A topic of this client's own: its message coming back is the sign that the broker has the
    /// subscriptions (the SUBACKs themselves are not reported by the MQTT client).
    static func probeTopic(_ clientID: String) -> String { "noiseclock-test-probe/\(clientID)" }

    func publish(_ topic: String, _ text: String, retain: Bool = false) {
        client.publish(topic: topic, payload: Array(text.utf8), qos: 1, retain: retain)
    }

    func publish(_ topic: String, bytes: [UInt8]) {
        client.publish(topic: topic, payload: bytes, qos: 1, retain: false)
    }

    var messages: [Received] { received.withLock { $0 } }

    func clear() { received.withLock { $0.removeAll() } }

    func shutdown() {
        client.shutdown(finalMessage: nil)
        pump?.cancel()
    }

    deinit { pump?.cancel() }
}

extension TestClient {
    /// Sends a harmless command (deleting an alarm that does not exist) to the node at `root` and
    /// waits for its answer. The node handles messages in order, so everything sent before it has
    /// been handled and its publications have arrived: what has not shown up by now never will.
    /// Needs a subscription to `root/response`.
    func barrier(_ root: String, timeout: Double = 10) async throws {
        let id = "barrier-\(UUID().uuidString.prefix(8))"
        let mark = messages.count
        publish("\(root)/alarm/delete", #"{"id": "no-such-alarm", "request_id": "\#(id)"}"#)
        try await waitFor("\(root)/response", timeout: timeout, after: mark, where: { $0.json?["request_id"] == .string(id) })
    }
}
