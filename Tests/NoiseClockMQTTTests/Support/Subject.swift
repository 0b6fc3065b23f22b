import Logging
import NoiseClockMQTT

/// The `MQTTClient` under test, started, with every event it reports recorded in order.
final class Subject: Sendable {
    let client: MQTTClient
    let clientID: String
    let events = Recorder<MQTTEvent>()
    let messages = Recorder<MQTTMessage>()
    /// Where the client's `onEvent` handler puts its events; finished by `shutdown`.
    private let sink: AsyncStream<MQTTEvent>.Continuation

    init(port: Int, subscriptions: [String] = [], version: MQTTOptions.ProtocolVersion = .v5, will: MQTTOptions.Will? = nil,
         reconnectDelay: (minimum: Double, maximum: Double) = (1, 30), clientID: String = "subject-\(UInt32.random(in: 0...UInt32.max))") throws {
        self.clientID = clientID
        var options = MQTTOptions(host: "127.0.0.1", port: port, clientID: clientID, keepaliveSeconds: 10,
                                  protocolVersion: version, will: will)
        options.reconnectDelay = reconnectDelay
        var logger = Logger(label: "mqtt-test")
        logger.logLevel = .critical
        let (stream, sink) = AsyncStream.makeStream(of: MQTTEvent.self)
        self.sink = sink
        client = try MQTTClient(options: options, subscriptions: subscriptions, logger: logger) { sink.yield($0) }
        let (events, messages) = (self.events, self.messages)
        // Ends with the stream, when the client shuts down.
        Task {
            for await event in stream {
                events.append(event)
                if case .message(let message) = event { messages.append(message) }
            }
        }
        client.start()
    }

    /// Waits for the `n`th `.connected` (1 = the first).
    func connected(_ n: Int = 1, timeout: Double = 5) async throws {
        _ = try await events.collect(n, timeout: timeout, "connected event(s)") { $0 == .connected }
    }

    func disconnected(_ n: Int = 1, timeout: Double = 5) async throws {
        _ = try await events.collect(n, timeout: timeout, "disconnected event(s)") { $0 == .disconnected }
    }

    /// Returns once the broker has handled everything the client sent so far, its SUBSCRIBEs
    /// above all: the client publishes a probe the observer must receive, and the broker handles
    /// one connection's packets in order. This is the SUBACK the adapter does not report.
    func barrier(_ observer: Observer) async throws {
        let topic = "probe/\(clientID)"
        try await observer.subscribe(topic)
        let token = "\(UInt64.random(in: 0...UInt64.max))"
        client.publish(topic: topic, payload: Array(token.utf8), qos: 1, retain: false)
        try await observer.messages.first(timeout: 5, "probe from \(clientID)") { $0.topic == topic && $0.text == token }
    }

    @discardableResult
    func publish(_ topic: String, _ text: String, qos: Int32 = 1, retain: Bool = false, correlationData: [UInt8]? = nil) -> Bool {
        client.publish(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain, correlationData: correlationData)
    }

    /// By default says goodbye on a topic no observer watches: a final message ends the client's
    /// loop at once, where without one it waits out the loop's 1 s timeout.
    func shutdown(finalMessage: (topic: String, payload: [UInt8], retain: Bool)? = nil) {
        client.shutdown(finalMessage: finalMessage ?? ("bye/\(clientID)", [], false))
        sink.finish()
    }
}

extension MQTTMessage {
    var text: String { String(decoding: payload, as: UTF8.self) }
}
