import NoiseClockMQTT
import Testing

/// A broker that accepts a connection and closes it at its SUBSCRIBE refused the session: RabbitMQ
/// 3.10 does that, under the same client id, for as long as the broker node that held the id's
/// subscription queue is crashed (issue 31, finding 11). The proxy in front of a real mosquitto
/// does the same for the ids it is told; the cluster itself is in `RabbitFailoverTests`.
@Suite struct SessionRefusalTests {
    @Test func aRefusedSessionComesBackAtOnceUnderASuffixedClientIDAndKeepsIt() async throws {
        let broker = try TestBroker()
        let proxy = try TCPProxy(to: broker.port)
        defer { proxy.stop() }
        let stable = "subject-refused"
        proxy.refuseSessions(of: [stable])
        let subject = try Subject(port: proxy.port, subscriptions: ["n/cmd"], reconnectDelay: (0.05, 0.8), clientID: stable)
        defer { subject.shutdown() }
        try await subject.connected()

        let ids = proxy.clientIDs.items
        #expect(ids.count == 2 && ids.first == stable, "\(ids)")
        let suffix = ids.last.map { String($0.dropFirst(stable.count)) } ?? ""
        #expect(suffix.count == 9 && suffix.first == "-" && suffix.dropFirst().allSatisfy(\.isHexDigit), "\(ids)")
        // The refused connection was never reported connected: `online` is said where commands reach the owner.
        #expect(subject.events.items == [.connected])
        let observer = try await Observer(port: broker.port)
        defer { observer.close() }
        try await observer.publish("n/cmd", "after the refusal")
        #expect(try await subject.messages.first(timeout: 5, "a command").text == "after the refusal")

        // A later loss comes back under the same suffixed id: the broker's half-open copy of the
        // old connection is taken over, not left to send its will later.
        proxy.goDown()
        try await subject.disconnected()
        proxy.goUp()
        try await subject.connected(2)
        #expect(proxy.clientIDs.items.count == 3 && proxy.clientIDs.items.last == ids.last, "\(proxy.clientIDs.items)")
    }

    /// A new client id needs a new libmosquitto handle, which forgets what it held: 30 QoS 1 events
    /// were sent into a network that lost them (more than the 20 libmosquitto keeps in flight), then
    /// the session was refused; all 30 arrive under the new id (at least once).
    @Test func eventsUnacknowledgedWhenTheIDChangesAreSentUnderTheNewOne() async throws {
        let rig = try await ProxiedSubject.start(observing: ["n/event"], subscriptions: ["n/cmd"], reconnectDelay: (0.05, 0.8))
        defer { rig.shutdown() }
        let (proxy, observer, subject) = (rig.proxy, rig.observer, rig.subject)

        proxy.swallow(true)
        let sent = (1...30).map { "event \($0)" }
        for text in sent { #expect(subject.publish("n/event", text)) }
        proxy.refuseSessions(of: [subject.clientID])
        proxy.goDown()
        try await subject.disconnected()
        proxy.swallow(false)
        proxy.goUp()
        try await subject.connected(2)
        #expect(proxy.clientIDs.items.last != subject.clientID)

        let received = try await observer.messages.wait(timeout: 10, what: "all 30 events") { messages in
            Set(messages.map(\.text)).isSuperset(of: sent) ? messages : nil
        }
        #expect(received.allSatisfy { $0.topic == "n/event" && $0.qos == 1 })
    }

    /// mosquitto never refuses a session that way: its reconnects keep the configured id.
    @Test func aPlainBrokerKeepsTheConfiguredClientIDAcrossReconnects() async throws {
        let broker = try TestBroker()
        let proxy = try TCPProxy(to: broker.port)
        defer { proxy.stop() }
        let subject = try Subject(port: proxy.port, subscriptions: ["n/cmd"], reconnectDelay: (0.05, 0.8))
        defer { subject.shutdown() }
        try await subject.connected()
        proxy.goDown()
        try await subject.disconnected()
        proxy.goUp()
        try await subject.connected(2)
        #expect(proxy.clientIDs.items == [subject.clientID, subject.clientID])
    }
}
