import NoiseClockMQTT
import Testing

/// Reconnecting: after a broker restart with the real back-off, and the back-off itself.
@Suite struct ReconnectTests {
    /// Costs the first retry, 1 s after the loss (the default minimum back-off), or 3 s if the
    /// restarted broker is not listening yet by then.
    @Test func aRestartedBrokerGetsTheSubscriptionsBack() async throws {
        let broker = try TestBroker()
        let subject = try Subject(port: broker.port, subscriptions: ["n/cmd"])
        defer { subject.shutdown() }
        try await subject.connected()

        broker.stop()
        try await subject.disconnected()
        try broker.start()
        try await subject.connected(2, timeout: 10)

        // The restarted broker (no persistence) knows nothing of the old session: the message
        // arrives only if the client subscribed again.
        let observer = try await Observer(port: broker.port)
        defer { observer.close() }
        try await subject.barrier(observer)
        try await observer.publish("n/cmd", "after restart")
        #expect(try await subject.messages.first(timeout: 5, "message after the restart").text == "after restart")
        #expect(subject.events.items == [.connected, .disconnected, .connected, .message(subject.messages.items[0])])
    }

    /// With a 0.05 s → 0.8 s back-off the retries come after 0.05, 0.1, 0.2, 0.4, 0.8, 0.8, 0.8 s
    /// (about 3.2 s in all); the connection attempts are timed where they arrive, at the proxy.
    @Test func backOffDoublesUpToItsMaximumAndRestartsAfterAConnection() async throws {
        let broker = try TestBroker()
        let proxy = try TCPProxy(to: broker.port)
        defer { proxy.stop() }
        proxy.goDown()
        let subject = try Subject(port: proxy.port, reconnectDelay: (0.05, 0.8))
        defer { subject.shutdown() }

        let attempts = try await proxy.attempts.collect(8, timeout: 15, "connection attempts")
        let gaps = zip(attempts.dropFirst(), attempts).map { seconds($0 - $1) }
        for (gap, delay) in zip(gaps, [0.05, 0.1, 0.2, 0.4, 0.8, 0.8, 0.8]) {
            #expect(gap >= delay * 0.95, "gaps \(gaps)")
        }
        // Doubling on would wait 1.6 s and then 3.2 s; one late wake-up is tolerated.
        #expect(min(gaps[5], gaps[6]) < 1.3, "gaps \(gaps)")
        #expect(subject.events.items.isEmpty)

        proxy.goUp()
        try await subject.connected()
        let cut = ContinuousClock.now
        let seen = proxy.attempts.count
        proxy.goDown()
        try await subject.disconnected()
        let retry = try await proxy.attempts.first(from: seen)
        // Back to the minimum (0.05 s) instead of the 0.8 s it had reached.
        #expect(seconds(retry - cut) < 0.5)
        #expect(subject.events.items == [.connected, .disconnected])
    }

    /// The back-off pause sleeps on a signal that `shutdown` raises: stopping does not wait it out.
    @Test func shutdownDuringALongBackOffReturnsAtOnce() async throws {
        let broker = try TestBroker()
        let proxy = try TCPProxy(to: broker.port)
        defer { proxy.stop() }
        proxy.goDown()
        let subject = try Subject(port: proxy.port, reconnectDelay: (30, 30))
        try await proxy.attempts.first(timeout: 5, "connection attempt")
        let start = ContinuousClock.now
        subject.shutdown()
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(subject.events.items.isEmpty)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
