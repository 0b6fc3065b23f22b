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

    public static func read(
        host: String, port: Int, base: String, discoveryPrefix: String, username: String? = nil, password: String? = nil,
        quietMilliseconds: Int = 400, timeoutSeconds: Int = 10
    ) async throws(Failure) -> FleetView {
        let view = Mutex((view: FleetView(base: base, discoveryPrefix: discoveryPrefix), connected: false, last: WallClock.now()))
        let subscriptions = FleetView(base: base, discoveryPrefix: discoveryPrefix).subscriptions
        var options = MQTTOptions(host: host, port: port, clientID: "noiseclock-fleet-\(UInt32.random(in: .min ... .max))",
                                  username: username, password: password, protocolVersion: .v311)
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
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            let (connected, last) = view.withLock { ($0.connected, $0.last) }
            if !connected, let failure = client.connectionFailure { throw Failure(description: failure) }
            let now = WallClock.now()
            if connected, now.milliseconds - last.milliseconds >= Int64(quietMilliseconds) { break }
            if now.milliseconds - started.milliseconds > Int64(timeoutSeconds) * 1000 {
                guard connected else { throw Failure(description: "cannot reach the broker at \(host):\(port) within \(timeoutSeconds) s") }
                break
            }
        }
        return view.withLock { $0.view }
    }
}
