import NoiseClockCore
import NoiseClockMQTT
import ServiceLifecycle

/// The MQTT adapter as a service: runs the client's network thread, whose events go straight
/// into the inbox (`input(for:)`, handed to the client as its `onEvent`), and on shutdown
/// publishes `offline` (waiting up to 2 s for it to leave) and disconnects.
struct MQTTService: Service {
    let client: MQTTClient
    let availabilityTopic: String

    /// The node input for a client event.
    static func input(for event: MQTTEvent) -> NodeInput {
        switch event {
        case .connected: .connected
        case .disconnected: .disconnected
        case .message(let message):
            .message(InboundMessage(
                topic: message.topic, payload: message.payload, retain: message.retain,
                responseTopic: message.responseTopic, correlationData: message.correlationData, oversizeBytes: message.oversizeBytes
            ))
        }
    }

    /// Every subscribed topic's cap (`InboundLimits`), for the client's network thread.
    static func payloadCap(_ limits: InboundLimits) -> @Sendable (String) -> MQTTPayloadCap {
        { topic in
            let cap = limits.cap(for: topic)
            return MQTTPayloadCap(bytes: cap.bytes, answered: cap.answered)
        }
    }

    func run() async throws {
        client.start()
        // Events need no task of ours: the network thread hands them to the inbox itself.
        try? await gracefulShutdown()
        client.shutdown(finalMessage: (availabilityTopic, Array("offline".utf8), true))
    }
}
