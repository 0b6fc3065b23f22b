import NoiseClockMQTT
import Testing

/// While offline, QoS 1 non-retained messages wait (up to `MQTTClient.outboxLimit`, oldest
/// dropped first) and go out in order after the next connect; QoS 0 and retained ones are
/// refused, because the owner re-publishes retained state on `.connected`.
@Suite struct OutboxTests {
    @Test func queuedEventsGoOutInOrderAfterTheReconnectAndNothingElseWaits() async throws {
        let rig = try await ProxiedSubject.start(observing: ["n/#"], reconnectDelay: (0.05, 0.2))
        defer { rig.shutdown() }
        let (proxy, observer, subject) = (rig.proxy, rig.observer, rig.subject)

        proxy.goDown()
        try await subject.disconnected()
        for index in 1...5 {
            #expect(subject.publish("n/event", "queued \(index)"))
        }
        #expect(!subject.publish("n/time", "12:00", qos: 0))
        #expect(!subject.publish("n/state", "on", retain: true))
        // The proxy refuses every attempt until goUp, so all of that met a disconnected client.
        #expect(!subject.client.isConnected)

        proxy.goUp()
        try await subject.connected(2)
        // Published as soon as `.connected` arrives, racing the outbox's flush: it must still be last.
        #expect(subject.publish("n/event", "live"))
        let events = try await observer.messages.collect(6) { $0.topic == "n/event" }
        #expect(events.map(\.text) == (1...5).map { "queued \($0)" } + ["live"])
        #expect(events.allSatisfy { $0.qos == 1 && !$0.retain })
        // QoS 0 and retained messages would have left with the outbox, before `live`.
        #expect(observer.messages.items.map(\.topic) == Array(repeating: "n/event", count: 6))
    }

    @Test func theOutboxKeepsTheNewestThousand() async throws {
        let limit = MQTTClient.outboxLimit
        #expect(limit == 1000)
        // mosquitto queues 1000 messages per subscriber by default: give the observer room.
        let broker = try TestBroker(extraConfig: """
            listener $PORT 127.0.0.1
            allow_anonymous true
            persistence false
            max_queued_messages 5000
            """)
        let rig = try await ProxiedSubject.start(broker: broker, observing: ["n/event"], reconnectDelay: (0.05, 0.2))
        defer { rig.shutdown() }
        let (proxy, observer, subject) = (rig.proxy, rig.observer, rig.subject)

        proxy.goDown()
        try await subject.disconnected()
        let extra = 5
        for index in 1...(limit + extra) {
            #expect(subject.publish("n/event", "\(index)"))
        }
        proxy.goUp()
        try await subject.connected(2)
        #expect(subject.publish("n/event", "live"))

        let received = try await observer.messages.collect(limit + 1, timeout: 20).map(\.text)
        // The oldest `extra` were dropped; compared as one Bool to keep a failure's report short.
        let expected = ((extra + 1)...(limit + extra)).map { "\($0)" } + ["live"]
        let asExpected = received == expected
        #expect(asExpected, "got \(received.prefix(3)) … \(received.suffix(3)), \(received.count) in all")
    }
}
