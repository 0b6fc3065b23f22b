import NoiseClockMQTT
import Testing

/// Subscriptions changed while the client runs (`subscribe(group:topics:)`: the web app re-binds a
/// lamp): what came is subscribed at once, what went is dropped, a topic still held by the fixed
/// list or another group stays, and the groups are subscribed again after a reconnect. Each "not
/// received" is shown by a later message on another topic arriving first (the broker forwards one
/// publisher's messages in order), never by waiting.
@Suite struct BoundSubscriptionTests {
    @Test func aGroupIsReplacedWhileConnectedAndSubscribedAgainAfterAReconnect() async throws {
        let broker = try TestBroker()
        let observer = try await Observer(port: broker.port)
        defer { observer.close() }
        let subject = try Subject(port: broker.port, subscriptions: ["fixed/a"], reconnectDelay: (0.05, 0.2))
        defer { subject.shutdown() }
        subject.client.subscribe(group: "buttons", topics: ["button/x"])
        try await subject.connected()

        // Bound while connected: subscribed at once.
        subject.client.subscribe(group: "devices", topics: ["lamp/one"])
        try await subject.barrier(observer)
        try await observer.publish("lamp/one", "1")
        try await observer.publish("button/x", "x")
        #expect(try await subject.messages.collect(2).map(\.text) == ["1", "x"])

        // Replaced: the old topic dropped, the new one and a fixed one (also in the group) kept.
        subject.client.subscribe(group: "devices", topics: ["lamp/two", "fixed/a"])
        #expect(subject.client.boundTopics == ["button/x", "lamp/two", "fixed/a"])
        try await subject.barrier(observer)
        try await observer.publish("lamp/one", "stale")
        try await observer.publish("lamp/two", "2")
        #expect(try await subject.messages.collect(1, from: 2).map(\.text) == ["2"])

        // Emptied: `fixed/a` stays subscribed (it is fixed), `lamp/two` goes.
        subject.client.subscribe(group: "devices", topics: [])
        try await subject.barrier(observer)
        try await observer.publish("lamp/two", "stale")
        try await observer.publish("fixed/a", "f")
        #expect(try await subject.messages.collect(1, from: 3).map(\.text) == ["f"])

        // A new broker knows nothing of the session: the groups are subscribed again with the fixed list.
        broker.stop()
        try await subject.disconnected()
        subject.client.subscribe(group: "devices", topics: ["lamp/three"])
        try broker.start()
        try await subject.connected(2, timeout: 10)
        let again = try await Observer(port: broker.port)
        defer { again.close() }
        try await subject.barrier(again)
        try await again.publish("lamp/two", "stale")
        try await again.publish("lamp/three", "3")
        try await again.publish("button/x", "x2")
        #expect(try await subject.messages.collect(2, from: 4).map(\.text) == ["3", "x2"])
    }
}
