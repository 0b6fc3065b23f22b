import NoiseClockMQTT
import Testing

/// MQTT v5 request/response properties in both directions, and the v3.1.1 mode without them.
@Suite struct ProtocolVersionTests {
    @Test func v5ExposesResponseTopicAndCorrelationDataOfReceivedMessages() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port)
        defer { observer.close() }
        let subject = try Subject(port: broker.port, subscriptions: ["n/cmd"])
        defer { subject.shutdown() }
        try await subject.connected()
        try await subject.barrier(observer)

        try await observer.publish("n/cmd", Array("{}".utf8), responseTopic: "app/replies/7", correlationData: [0, 1, 2, 254, 255])
        try await observer.publish("n/cmd", "plain")
        let received = try await subject.messages.collect(2)
        #expect(received[0] == MQTTMessage(topic: "n/cmd", payload: Array("{}".utf8), responseTopic: "app/replies/7",
            correlationData: [0, 1, 2, 254, 255]))
        #expect(received[1] == MQTTMessage(topic: "n/cmd", payload: Array("plain".utf8)))
    }

    @Test func v5PublishCarriesCorrelationData() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port, subscriptions: ["n/response"])
        defer { observer.close() }
        let subject = try Subject(port: broker.port)
        defer { subject.shutdown() }
        try await subject.connected()

        #expect(subject.publish("n/response", "ok", correlationData: Array("req-42".utf8)))
        #expect(subject.publish("n/response", "no correlation"))
        let received = try await observer.messages.collect(2)
        #expect(received[0].correlationData == Array("req-42".utf8))
        #expect(received[1].correlationData == nil)
        #expect(received.map(\.text) == ["ok", "no correlation"])
    }

    @Test func v311ReceivesAndPublishesWithoutProperties() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port, subscriptions: ["n/response"])
        defer { observer.close() }
        let subject = try Subject(port: broker.port, subscriptions: ["n/cmd"], version: .v311)
        defer { subject.shutdown() }
        try await subject.connected()
        try await subject.barrier(observer)

        // A v5 sender's properties do not reach a v3.1.1 subscriber: the fields stay nil.
        try await observer.publish("n/cmd", Array("{}".utf8), responseTopic: "app/replies", correlationData: [1])
        let received = try await subject.messages.first(timeout: 5, "message on n/cmd")
        #expect(received == MQTTMessage(topic: "n/cmd", payload: Array("{}".utf8)))

        // Correlation data cannot be sent in v3.1.1: the message goes out without it.
        #expect(subject.publish("n/response", "ok", correlationData: [9]))
        let response = try await observer.messages.first { $0.topic == "n/response" }
        #expect(response.text == "ok" && response.correlationData == nil)
    }
}
