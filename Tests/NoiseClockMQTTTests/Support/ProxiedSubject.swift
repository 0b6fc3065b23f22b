import NoiseClockMQTT

/// The usual start of a connection-loss test: a real broker, a `TCPProxy` in front of it that
/// the test cuts, an `Observer` on the broker itself, and the `Subject` connected through the proxy.
struct ProxiedSubject {
    let broker: TestBroker
    let proxy: TCPProxy
    let observer: Observer
    let subject: Subject

    static func start(broker: TestBroker? = nil, observing topics: [String], subscriptions: [String] = [],
                      reconnectDelay: (minimum: Double, maximum: Double) = (1, 30), will: MQTTOptions.Will? = nil) async throws -> ProxiedSubject {
        let broker = try broker ?? TestBroker()
        let proxy = try TCPProxy(to: broker.port)
        let observer = try await Observer(port: broker.port, subscriptions: topics)
        let subject = try Subject(port: proxy.port, subscriptions: subscriptions, will: will, reconnectDelay: reconnectDelay)
        try await subject.connected()
        return ProxiedSubject(broker: broker, proxy: proxy, observer: observer, subject: subject)
    }

    /// The subject first, then the observer and the proxy (the broker goes with the last reference).
    func shutdown() {
        subject.shutdown()
        observer.close()
        proxy.stop()
    }
}
