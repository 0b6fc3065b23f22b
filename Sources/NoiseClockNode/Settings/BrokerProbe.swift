#if canImport(Glibc)
import Glibc
#endif
import Logging
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockThreads
import NoiseClockWeb
import Synchronization

/// `POST /api/mqtt/test` `{"host", "port"?, "tls"?, "username"?, "password"?}` (http-api.md v1.3):
/// connects to that broker with a client of its own (its own client id: the node's connection is
/// untouched), changes nothing, and answers within `limitSeconds` `{"connected": true, "broker",
/// "milliseconds"}` or `{"connected": false, "broker", "reason"}`. On a thread of its own: the web
/// server's thread never waits for a broker.
final class BrokerProbe: Sendable {
    static let limitSeconds = 5.0

    /// The node's configuration as its broker connection runs now (a password changed in the web
    /// app included, once it connected).
    let running: @Sendable () -> NodeConfiguration
    let logger: Logger
    /// The server the answers go to (set once it exists: it is built with this probe inside).
    let server = Mutex<WebServer?>(nil)
    /// The tests' threads, joined at shutdown (`JobThreadsService`).
    let threads = JobThreads(name: "mqtt-test")

    init(running: @escaping @Sendable () -> NodeConfiguration, logger: Logger) {
        self.running = running
        self.logger = logger
    }

    /// Starts a test for the waiting connection `id`; its answer comes through `WebServer.reply`.
    func start(_ request: WebCommandRequest, id: UInt64) {
        let started = try? threads.start { [self] in
            let (outcome, client) = test(request.body)
            reply(id, request.response(outcome))
            // After the answer: without a final message, stopping may wait for the loop's 1 s timeout.
            client?.shutdown(finalMessage: nil)
        }
        if started != true {
            reply(id, request.response(.failure(CommandError(.storageError, "cannot start the test"))))
        }
    }

    private func reply(_ id: UInt64, _ response: Response) {
        server.withLock { $0 }?.reply(id, response)
    }

    /// The answer, and the test's client to stop once it is sent.
    private func test(_ body: [UInt8]) -> (Result<JSONValue, CommandError>, MQTTClient?) {
        let options: MQTTOptions
        switch Self.options(body, running: running()) {
        case .failure(let error): return (.failure(error), nil)
        case .success(let parsed): options = parsed
        }
        let broker = "\(options.host):\(options.port)"
        let client: MQTTClient
        do {
            client = try MQTTClient(options: options, subscriptions: [], logger: logger, onEvent: { _ in })
        } catch {
            return (.success(["connected": false, "broker": .string(broker), "reason": .string(error.description)]), nil)
        }
        let started = ContinuousClock.now
        client.start()
        var answer: JSONValue = ["connected": false, "broker": .string(broker), "reason": "no answer within 5 s"]
        // The node stopping ends the wait (`JobThreadsService` joins this thread).
        while ContinuousClock.now - started < .seconds(Self.limitSeconds), !threads.isStopping {
            if client.isConnected {
                let elapsed = (ContinuousClock.now - started).components
                let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
                answer = ["connected": true, "broker": .string(broker), "milliseconds": .int(milliseconds)]
                break
            }
            if let failure = client.connectionFailure {
                answer = ["connected": false, "broker": .string(broker), "reason": .string(failure)]
                break
            }
            usleepMilliseconds(20)
        }
        return (.success(answer), client)
    }

    /// The test's client options from the body; the node's TLS files when `tls` is true, and its
    /// password when none is given for its own user name on its own broker (host and port).
    static func options(_ body: [UInt8], running: NodeConfiguration) -> Result<MQTTOptions, CommandError> {
        guard let object = (try? JSONParser(maxDepth: 8).parse(body))?.objectValue else {
            return .failure(CommandError(.invalidJSON, "POST /api/mqtt/test takes {\"host\", \"port\", \"tls\", \"username\", \"password\"}"))
        }
        guard let host = object["host"]?.stringValue, !host.isEmpty, host.utf8.count <= 253 else {
            return .failure(.invalidField("host", "host: a broker host name or address is needed"))
        }
        let port = object["port"]?.intValue ?? 1883
        guard (1...65535).contains(port) else { return .failure(.invalidField("port", "port: must be between 1 and 65535, got \(port)")) }
        let mqtt = running.mqtt
        let username = object["username"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        var password = object["password"]?.stringValue
        // The stored password goes only where it is already sent: the configured broker's own host
        // and port. Any other host needs the password in the request (it would learn the secret).
        let configured = [BrokerAddress(host: mqtt.host, port: mqtt.port)] + mqtt.hosts
        let ownBroker = configured.contains { $0.host.lowercased() == host.lowercased() && $0.port == port }
        if password == nil, username != nil, username == mqtt.username, ownBroker { password = mqtt.password?.value }
        var tls = MQTTOptions.TLS()
        if object["tls"]?.boolValue == true {
            guard mqtt.tls.caFile != nil || mqtt.tls.certFile != nil else {
                return .failure(.invalidField("tls", "tls: the node has no TLS files (mqtt.tls.ca_file in the configuration file)"))
            }
            tls = .init(caFile: mqtt.tls.caFile, certFile: mqtt.tls.certFile, keyFile: mqtt.tls.keyFile)
        }
        var options = MQTTOptions(
            host: host, port: port, clientID: "\(mqtt.clientID)-test-\(UInt32.random(in: .min ... .max))", username: username,
            password: password, tls: tls, keepaliveSeconds: 10, protocolVersion: mqtt.protocolVersion == .v5 ? .v5 : .v311
        )
        options.reconnectDelay = (1, 1)
        return .success(options)
    }
}

private func usleepMilliseconds(_ milliseconds: UInt32) {
    _ = usleep(milliseconds * 1000)
}
