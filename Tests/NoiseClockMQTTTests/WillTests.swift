import NoiseClockMQTT
import Testing

/// The last will covers a connection that dies; a clean shutdown says goodbye itself and leaves
/// no will behind.
@Suite struct WillTests {
    static let will = MQTTOptions.Will(topic: "n/availability", payload: Array("offline (will)".utf8), qos: 1, retain: true)

    @Test func aConnectionThatDiesLeavesTheRetainedWill() async throws {
        let rig = try await ProxiedSubject.start(observing: ["n/availability"], will: Self.will)
        defer { rig.shutdown() }
        let (proxy, observer, subject) = (rig.proxy, rig.observer, rig.subject)
        try await subject.barrier(observer)
        #expect(observer.texts(on: "n/availability").isEmpty)

        // The broker sees the TCP connection end without a DISCONNECT, as after a network failure.
        proxy.goDown()
        let will = try await observer.messages.first { $0.topic == "n/availability" }
        #expect(will.text == "offline (will)")
        #expect(will.qos == 1)
        try await subject.disconnected()

        let late = try await Observer(port: rig.broker.port, subscriptions: ["n/availability"])
        defer { late.close() }
        let retained = try await late.messages.first()
        #expect(retained.retain)
        #expect(retained.text == "offline (will)")
    }

    @Test func shutdownPublishesTheFinalMessageAndNoWill() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port, subscriptions: ["n/availability", "n/probe"])
        defer { observer.close() }
        let subject = try Subject(port: broker.port, will: Self.will)
        try await subject.connected()
        try await subject.barrier(observer)

        // Returns once the final message is acknowledged and DISCONNECT has gone out.
        subject.shutdown(finalMessage: ("n/availability", Array("offline".utf8), true))
        #expect(!subject.client.isConnected)
        #expect(try await observer.messages.first { $0.topic == "n/availability" }.text == "offline")

        // A will would have been sent when the connection closed, before this new connection
        // subscribed: the retained message is still the final one.
        let late = try await Observer(port: broker.port, subscriptions: ["n/availability"])
        defer { late.close() }
        let retained = try await late.messages.first()
        #expect(retained.retain && retained.text == "offline")
        // And the first observer saw nothing after it, up to its own probe.
        try await observer.publish("n/probe", "probe")
        _ = try await observer.messages.first { $0.topic == "n/probe" }
        #expect(observer.texts(on: "n/availability") == ["offline"])

        _ = try await subject.events.collect(2)
        #expect(subject.events.items == [.connected, .disconnected])
    }
}
