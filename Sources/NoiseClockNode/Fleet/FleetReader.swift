import Logging
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import Synchronization

/// Reads the fleet from a broker: subscribes to every node's retained topics, takes what comes
/// until the broker has been quiet for `quietMilliseconds` (retained messages arrive at once
/// after the subscription), and hands back the view. The client logs nothing: stdout is the table.
/// A connection that fails (refused, no route, the broker's refusal) is reported at once; a broker
/// that accepts the connection and never answers, after `timeoutSeconds`.
public enum FleetReader {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The fleet on the broker a node configuration names, reached as that node reaches it: the
    /// same `NodeApplication.mqttOptions` (every broker of `mqtt.hosts`, TLS, credentials, protocol).
    public static func read(configuration: NodeConfiguration, timeoutSeconds: Int = 10) async throws(Failure) -> FleetView {
        let mqtt = configuration.mqtt
        let connection = NodeApplication.mqttOptions(configuration, topics: TopicScheme(base: mqtt.baseTopic, nodeID: configuration.nodeID))
        return try await read(
            connection: connection, base: mqtt.baseTopic, discoveryPrefix: configuration.homeAssistant.prefix, timeoutSeconds: timeoutSeconds
        )
    }

    /// The fleet on a plain broker (no TLS, no credentials).
    public static func read(
        host: String, port: Int, base: String, discoveryPrefix: String, timeoutSeconds: Int = 10
    ) async throws(Failure) -> FleetView {
        let connection = MQTTOptions(host: host, port: port, clientID: "", protocolVersion: .v311)
        return try await read(connection: connection, base: base, discoveryPrefix: discoveryPrefix, timeoutSeconds: timeoutSeconds)
    }

    /// `connection` with the reader's own client id, no will and a clean session, retried quickly.
    static func read(
        connection: MQTTOptions, base: String, discoveryPrefix: String, quietMilliseconds: Int = 400, timeoutSeconds: Int
    ) async throws(Failure) -> FleetView {
        let view = Mutex((view: FleetView(base: base, discoveryPrefix: discoveryPrefix), connected: false, last: WallClock.now()))
        let subscriptions = FleetView(base: base, discoveryPrefix: discoveryPrefix).subscriptions
        var options = connection
        options.clientID = "noiseclock-fleet-\(UInt32.random(in: .min ... .max))"
        options.will = nil
        options.cleanSession = true
        options.reconnectDelay = (0.5, 1)
        let client: MQTTClient
        do {
            let silent = Logger(label: "fleet", factory: { _ in SwiftLogNoOpLogHandler() })
            client = try MQTTClient(options: options, subscriptions: subscriptions, logger: silent) { event in
                let now = WallClock.now()
                view.withLock { state in
                    switch event {
                    case .connected: state.connected = true
                    case .disconnected: break
                    case .message(let message):
                        state.view.take(topic: message.topic, payload: message.payload, retain: message.retain,
                                        receivedAt: ISO8601.string(now, in: .utc))
                    }
                    state.last = now
                }
            }
        } catch {
            throw Failure(description: error.description)
        }
        client.start()
        defer { client.shutdown(finalMessage: nil) }
        let started = WallClock.now()
        let brokers = options.brokers.map { "\($0.host):\($0.port)" }
        // Each broker's failure names it: the reader gives up at once when every one has failed.
        var failures: [String] = []
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            let (connected, last) = view.withLock { ($0.connected, $0.last) }
            if !connected, let failure = client.connectionFailure, !failures.contains(failure) {
                failures.append(failure)
                if failures.count >= brokers.count { throw Failure(description: failures.joined(separator: "; ")) }
            }
            let now = WallClock.now()
            if connected, now.milliseconds - last.milliseconds >= Int64(quietMilliseconds) { break }
            if now.milliseconds - started.milliseconds > Int64(timeoutSeconds) * 1000 {
                guard connected else {
                    throw Failure(description: "cannot reach the broker at \(brokers.joined(separator: ", ")) within \(timeoutSeconds) s")
                }
                break
            }
        }
        return view.withLock { $0.view }
    }
}
