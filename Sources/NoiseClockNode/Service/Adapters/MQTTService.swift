import NoiseClockCore
import NoiseClockMQTT
import ServiceLifecycle

/// The MQTT adapter as a service: runs the client's network thread, turns its events into node
/// inputs, and on shutdown publishes `offline` (waiting up to 2 s for it to leave) and disconnects.
struct MQTTService: Service {
    let client: MQTTClient
    let inbox: NodeInbox
    let availabilityTopic: String

    func run() async throws {
        client.start()
        for await event in client.events.cancelOnGracefulShutdown() {
            switch event {
            case .connected: inbox.send(.connected)
            case .disconnected: inbox.send(.disconnected)
            case .message(let message):
                inbox.send(.message(InboundMessage(
                    topic: message.topic, payload: message.payload, retain: message.retain,
                    responseTopic: message.responseTopic, correlationData: message.correlationData
                )))
            }
        }
        client.shutdown(finalMessage: (availabilityTopic, Array("offline".utf8), true))
    }
}
