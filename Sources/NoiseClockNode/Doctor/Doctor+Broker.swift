import Logging
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import Synchronization

/// The broker (reachable, TLS and credentials accepted) and, through it, the lamp and the bed
/// shaker (each asked for its state, which changes nothing, and given a moment to answer).
extension Doctor {
    /// How long the broker has to accept, and each device to answer: a healthy node's doctor ends within 3 s.
    static let brokerSeconds = 2.5
    static let deviceSeconds = 1.5

    static func brokerChecks(_ configuration: NodeConfiguration) async -> [DoctorCheck] {
        let topics = TopicScheme(base: configuration.mqtt.baseTopic, nodeID: configuration.nodeID)
        var options = NodeApplication.mqttOptions(configuration, topics: topics)
        // Its own client id (the node may be connected) and no last will (it would say the node is offline).
        options.clientID = "noiseclock-doctor-\(UInt32.random(in: .min ... .max))"
        options.will = nil
        options.reconnectDelay = (0.5, 1)
        let devices = DeviceList.kinds.map { (kind: $0, endpoint: configuration.devices[$0.key]) }
        let heard = Mutex((connected: false, topics: Set<String>(), audio: nil as [UInt8]?))
        let audioTopic = topics.topic("audio")
        let client: MQTTClient
        do {
            let silent = Logger(label: "doctor", factory: { _ in SwiftLogNoOpLogHandler() })
            let subscriptions = configuration.devices.stateTopics + [audioTopic]
            client = try MQTTClient(options: options, subscriptions: subscriptions, logger: silent) { event in
                heard.withLock { state in
                    switch event {
                    case .connected: state.connected = true
                    case .disconnected: break
                    // The running node's retained `~/audio`: its underruns since it started.
                    case .message(let message) where message.topic == audioTopic: state.audio = message.payload
                    // A retained state may be a dead device's last word: only a live answer counts.
                    case .message(let message) where !message.retain: state.topics.insert(message.topic)
                    case .message: break
                    }
                }
            }
        } catch {
            return [DoctorCheck("broker", .failed, "cannot set up the MQTT client: \(error)", advice: "check mqtt.* in the configuration")]
                + devices.map { skippedDevice($0.kind, $0.endpoint) }
        }
        client.start()
        defer { client.shutdown(finalMessage: nil) }
        let broker = "\(options.host):\(options.port)" + (options.tls.isEnabled ? " over TLS" : "") + (options.username.map { " as \($0)" } ?? "")
        let connected = await waitUntil(seconds: brokerSeconds) { heard.withLock { $0.connected } || client.connectionFailure != nil }
        guard connected, heard.withLock({ $0.connected }) else {
            let failure = client.connectionFailure ?? "no answer within \(brokerSeconds) s"
            // The client's words name the broker already ("cannot connect to HOST:PORT: ...") but not a refusal's.
            let verdict = failure.hasPrefix("cannot connect") ? failure : "cannot connect to \(broker): \(failure)"
            return [DoctorCheck("broker", .failed, verdict, advice: brokerAdvice(failure))]
                + devices.map { skippedDevice($0.kind, $0.endpoint) }
        }
        var checks = [DoctorCheck("broker", .ok, "connected to \(broker)")]
        // The retained `~/audio` comes right after the subscription: a moment for it, as for a device.
        _ = await waitUntil(seconds: 0.5) { heard.withLock { $0.audio } != nil }
        checks.append(underrunCheck(heard.withLock { $0.audio }))
        for (kind, endpoint) in devices {
            let name = kind.name
            guard let endpoint else {
                checks.append(skippedDevice(kind, nil))
                continue
            }
            let query = endpoint.stateQuery
            _ = client.publish(topic: query.topic, payload: Array(query.payload.utf8), qos: 1, retain: false)
            let answered = await waitUntil(seconds: deviceSeconds) { !heard.withLock { $0.topics }.isDisjoint(with: endpoint.stateTopics) }
            checks.append(answered
                ? DoctorCheck(name, .ok, "\(endpoint.topic) (\(endpoint.bridge.rawValue)) answered")
                : DoctorCheck(name, .failed, "\(endpoint.topic) (\(endpoint.bridge.rawValue)) did not answer within \(deviceSeconds) s",
                              advice: "is it powered and paired, and is \(endpoint.bridge.rawValue) running? Compare "
                                  + "devices.\(kind.key).topic with the name the bridge gives it"))
        }
        return checks
    }

    private static func skippedDevice(_ kind: any BridgedDevice.Type, _ endpoint: DeviceEndpoint?) -> DoctorCheck {
        endpoint == nil
            ? DoctorCheck(kind.name, .skipped, "no \(kind.name) configured (devices.\(kind.key))")
            : DoctorCheck(kind.name, .skipped, "not asked: the broker is not reachable")
    }

    static func brokerAdvice(_ failure: String) -> String {
        let text = failure.lowercased()
        if text.contains("authori") || text.contains("password") || text.contains("user name") {
            return "the broker refused the credentials: check mqtt.username and mqtt.password or mqtt.password_file"
        }
        if text.contains("tls") || text.contains("certificate") || text.contains("ssl") {
            return "TLS failed: check mqtt.tls.ca_file (and cert_file/key_file), and that the host name matches the certificate"
        }
        return "is the broker running and reachable at mqtt.host and mqtt.port? (`mosquitto_sub -h HOST -p PORT -t '#' -C 1`)"
    }

    /// Polls `done` every 20 ms for up to `seconds`; whether it became true.
    static func waitUntil(seconds: Double, _ done: () -> Bool) async -> Bool {
        let deadline = WallClock.now().adding(milliseconds: Int64(seconds * 1000))
        while !done() {
            guard WallClock.now() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
