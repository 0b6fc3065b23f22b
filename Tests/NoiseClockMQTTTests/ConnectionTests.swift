import NoiseClockMQTT
import Testing

/// Connecting, exact subscriptions, and the three kinds of publication the node uses.
@Suite struct ConnectionTests {
    @Test func receivesOnItsExactCommandTopicsOnly() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port)
        defer { observer.close() }
        let subject = try Subject(port: broker.port, subscriptions: ["clock/n1/noise/set", "clock/all/noise/set"])
        defer { subject.shutdown() }
        try await subject.connected()
        try await subject.barrier(observer)

        // Neighbours of the subscribed topics first: had any matched, it would arrive before the rest.
        try await observer.publish("clock/n1/noise", "parent")
        try await observer.publish("clock/n1/noise/set/x", "child")
        try await observer.publish("clock/n2/noise/set", "other node")
        try await observer.publish("clock/n1/noise/set", "one")
        try await observer.publish("clock/all/noise/set", [0, 255, 10])

        let received = try await subject.messages.collect(2)
        #expect(received.map(\.topic) == ["clock/n1/noise/set", "clock/all/noise/set"])
        #expect(received.map(\.payload) == [Array("one".utf8), [0, 255, 10]])
        #expect(received.allSatisfy { !$0.retain && $0.responseTopic == nil && $0.correlationData == nil })
        #expect(subject.messages.count == 2)
        #expect(subject.events.items.first == .connected)
    }

    @Test func publishesAtQoS0AndQoS1AndRetained() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port, subscriptions: ["out/#"])
        defer { observer.close() }
        let subject = try Subject(port: broker.port)
        defer { subject.shutdown() }
        try await subject.connected()

        let binary = (0...255).map { UInt8($0) }
        #expect(subject.publish("out/time", "12:00", qos: 0))
        #expect(subject.client.publish(topic: "out/event", payload: binary, qos: 1, retain: false))
        #expect(subject.publish("out/state", "on", retain: true))

        let live = try await observer.messages.collect(3)
        #expect(live.map(\.topic) == ["out/time", "out/event", "out/state"])
        #expect(live.map(\.qos) == [0, 1, 1])
        #expect(live[1].payload == binary)
        #expect(live[2].text == "on")

        // A later subscriber gets the retained message, flagged so, and nothing else: the
        // probe it publishes itself comes after any retained message the broker holds.
        let late = try await Observer(port: broker.port, subscriptions: ["out/#"])
        defer { late.close() }
        try await late.publish("out/probe", "probe")
        _ = try await late.messages.first { $0.topic == "out/probe" }
        #expect(late.messages.items.map(\.topic) == ["out/state", "out/probe"])
        #expect(late.messages.items.first?.retain == true)
        #expect(late.messages.items.first?.text == "on")
    }
}
