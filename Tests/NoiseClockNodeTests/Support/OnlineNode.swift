/// The usual start of an integration test: a fresh broker, the real node, and a client
/// subscribed to the node's topics that has seen it come `online`.
struct OnlineNode {
    let broker: TestBroker
    let node: NodeProcess
    let client: TestClient
    var root: String { "noiseclock/\(node.nodeID)" }

    /// `subscriptions` are relative to the node's root (`#`, `availability`, ...).
    static func start(subscribing subscriptions: [String] = ["#"], environment: [String: String] = [:],
        yamlExtra: String = "") async throws -> OnlineNode {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port, yamlExtra: yamlExtra, environment: environment)
        try node.start()
        let root = "noiseclock/\(node.nodeID)"
        let client = try await TestClient(port: broker.port, subscriptions: subscriptions.map { "\(root)/\($0)" })
        try await client.waitFor("\(root)/availability", where: { $0.text == "online" })
        return OnlineNode(broker: broker, node: node, client: client)
    }

    func shutdown() { client.shutdown() }
}
