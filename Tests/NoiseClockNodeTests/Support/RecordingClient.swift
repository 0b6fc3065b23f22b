import Foundation
import Logging
import NoiseClockCore
import NoiseClockMQTT
import Synchronization

/// Like `TestClient`, but built from any `MQTTOptions`: TLS and passwords, or a persistent
/// session (MQTT 3.1.1, clean session off) that the broker keeps across restarts.
final class RecordingClient: ReceivingClient, @unchecked Sendable {
    let client: MQTTClient
    private let received = TestClient.Log()
    /// Connects seen so far; a class so the pump task can share it.
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    private let connects = Counter()
    /// Probe messages seen (see `TestClient.probeTopic`).
    private let probes = Counter()
    private let probeTopic: String
    private var pump: Task<Void, Never>?

    /// Starts connecting; call `waitConnected` before relying on the subscriptions.
    init(options: MQTTOptions, subscriptions: [String]) throws {
        var logger = Logger(label: "recording-client")
        logger.logLevel = .critical
        let probe = TestClient.probeTopic(options.clientID)
        probeTopic = probe
        let (stream, events) = AsyncStream.makeStream(of: MQTTEvent.self)
        client = try MQTTClient(options: options, subscriptions: subscriptions + [probe], logger: logger) { events.yield($0) }
        client.start()
        let received = self.received
        let connects = self.connects
        let probes = self.probes
        pump = Task {
            for await event in stream {
                switch event {
                case .message(let message) where message.topic == probe:
                    probes.value.withLock { $0 += 1 }
                case .message(let message):
                    received.withLock {
                        $0.append(TestClient.Received(topic: message.topic, payload: message.payload, retain: message.retain, at: Date()))
                    }
                case .connected: connects.value.withLock { $0 += 1 }
                case .disconnected: break
                }
            }
        }
    }

    /// A persistent-session subscriber on the plain test broker.
    static func persistent(port: Int, clientID: String, subscriptions: [String]) throws -> RecordingClient {
        var options = MQTTOptions(host: "127.0.0.1", port: port, clientID: clientID, keepaliveSeconds: 10, protocolVersion: .v311)
        options.cleanSession = false
        options.reconnectDelay = (0.2, 0.5)
        return try RecordingClient(options: options, subscriptions: subscriptions)
    }

    var connectCount: Int { connects.value.withLock { $0 } }

    func waitConnected(count: Int = 1, timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while connectCount < count {
            guard Date() < deadline else { throw TestFailure("client did not connect within \(timeout) s") }
            try await Task.sleep(for: .milliseconds(10))
        }
        // The subscriptions are sent in the connect callback, before `.connected`: a probe
        // published now comes back once the broker has them all.
        let seen = probes.value.withLock { $0 }
        client.publish(topic: probeTopic, payload: [], qos: 1, retain: false)
        while probes.value.withLock({ $0 }) <= seen {
            guard Date() < deadline else { throw TestFailure("subscriptions not confirmed within \(timeout) s") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func publish(_ topic: String, _ text: String) {
        client.publish(topic: topic, payload: Array(text.utf8), qos: 1, retain: false)
    }

    var messages: [TestClient.Received] { received.withLock { $0 } }

    func shutdown() {
        client.shutdown(finalMessage: nil)
        pump?.cancel()
    }

    deinit { pump?.cancel() }
}

/// Small helpers shared by the fault, security and many-node suites.
enum FaultSupport {
    /// Every `label` string anywhere in a JSON document (alarms list or alarms.json).
    static func labels(in value: JSONValue?) -> [String] {
        switch value {
        case .object(let object)?:
            return object.keys.flatMap { key -> [String] in
                if key == "label", let label = object[key]?.stringValue { return [label] }
                return labels(in: object[key])
            }
        case .array(let items)?: return items.flatMap { labels(in: $0) }
        default: return []
        }
    }

    /// Parses a state file; nil when it is missing, throws when it is not valid JSON.
    static func stateFile(_ directory: URL, _ name: String) throws -> JSONValue? {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try JSONParser().parse(Array(data))
    }

    /// Resident set size of a process in KiB, from /proc.
    static func residentKiB(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    static func date(iso text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }

    /// Waits until `condition` holds, polling every 20 ms; false on timeout.
    static func eventually(timeout: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
