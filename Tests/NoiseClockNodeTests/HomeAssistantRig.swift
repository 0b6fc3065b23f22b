import Foundation
import NoiseClockCore

/// One broker, one real node (with a fake sysfs battery, so the battery entities exist) and a
/// client watching the node's topics and the whole discovery prefix, as Home Assistant would.
final class HomeAssistantRig: @unchecked Sendable {
    static let prefix = "homeassistant"

    let broker: TestBroker
    let node: NodeProcess
    let client: TestClient
    let root: String
    private let powerSupply: URL

    /// Starts broker and node and waits until the node is online with its battery configs out
    /// (`waitForDiscovery`, which needs `battery`).
    init(broker existing: TestBroker? = nil, battery: Bool = true, environment: [String: String] = [:],
         waitForDiscovery: Bool = true) async throws {
        broker = try existing ?? TestBroker()
        powerSupply = try makeTemporaryDirectory(prefix: "power")
        if battery { try Self.writeBattery(in: powerSupply) }
        var env = environment
        env["NOISECLOCK_BATTERY_PATH"] = powerSupply.path
        node = try NodeProcess(brokerPort: broker.port, environment: env)
        root = "noiseclock/\(node.nodeID)"
        client = try await TestClient(port: broker.port, subscriptions: ["\(root)/#", "\(Self.prefix)/#"])
        try node.start()
        try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
        if waitForDiscovery {
            // The battery is read just after connecting: its configs are the last to go out.
            try await client.waitFor(configTopic("binary_sensor", "battery_charging"), timeout: 10)
        }
    }

    /// A charging battery at 87 %, laid out as Linux's power-supply class has it.
    static func writeBattery(in directory: URL) throws {
        let battery = directory.appendingPathComponent("BAT0")
        try FileManager.default.createDirectory(at: battery, withIntermediateDirectories: true)
        for (file, text) in [("type", "Battery"), ("present", "1"), ("capacity", "87"), ("status", "Charging")] {
            try (text + "\n").write(to: battery.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
    }

    func configTopic(_ component: String, _ object: String) -> String {
        "\(Self.prefix)/\(component)/\(node.nodeID)/\(object)/config"
    }

    /// Sends a command and returns the node's response to it.
    @discardableResult
    func command(_ suffix: String, _ payload: String) async throws -> JSONValue {
        try await send("\(root)/\(suffix)", payload)
    }

    /// Publishes `payload` on an absolute command topic and waits for the response naming it.
    @discardableResult
    func send(_ topic: String, _ payload: String) async throws -> JSONValue {
        let suffix = String(topic.dropFirst(root.count + 1))
        let mark = client.messages.count
        client.publish(topic, payload)
        // Generous: the whole test run shares two cores; no bound here comes from the contract.
        let response = try await client.waitFor("\(root)/response", timeout: 15, after: mark, where: { $0.json?["command"]?.stringValue == suffix })
        return try response.json ?? { throw TestFailure("response is not JSON: \(response.text)") }()
    }

    /// Waits for the retained state on `~/suffix` to satisfy `predicate` (after `mark`).
    @discardableResult
    func waitForState(_ suffix: String, after mark: Int, timeout: Double = 10,
                      where predicate: @escaping @Sendable (JSONValue) -> Bool) async throws -> JSONValue {
        let message = try await client.waitFor("\(root)/\(suffix)", timeout: timeout, after: mark, where: { $0.json.map(predicate) ?? false })
        return message.json!
    }

    /// What a newcomer subscribing to `filters` gets as retained messages (topic → message). The
    /// broker sends them right after the subscription, before the newcomer's own probe message
    /// comes back, so they are all in by the time `TestClient` is ready.
    func retained(_ filters: [String]) async throws -> [String: TestClient.Received] {
        let probe = try await TestClient(port: broker.port, subscriptions: filters)
        defer { probe.shutdown() }
        return Dictionary(probe.messages.filter(\.retain).map { ($0.topic, $0) }, uniquingKeysWith: { $1 })
    }

    /// Every retained discovery config under the prefix for this node, by topic.
    func retainedConfigs() async throws -> [String: JSONObject] {
        // An empty payload clears a config: one seen while a node is clearing them is not a config.
        let messages = try await retained(["\(Self.prefix)/+/\(node.nodeID)/+/config"]).filter { !$0.value.payload.isEmpty }
        return try messages.mapValues { message in
            guard let object = message.json?.objectValue else { throw TestFailure("\(message.topic): not a JSON object: \(message.text)") }
            return object
        }
    }

    deinit {
        client.shutdown()
        try? FileManager.default.removeItem(at: powerSupply)
    }
}
