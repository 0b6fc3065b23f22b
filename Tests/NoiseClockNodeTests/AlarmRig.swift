import Foundation
import Glibc
import NoiseClockCore
import Testing

/// One broker, a client watching everything under `noiseclock/`, and the nodes a test starts on
/// it. Commands go out one at a time, so the first `~/response` after a command is its answer.
final class AlarmRig: @unchecked Sendable {
    let broker: TestBroker
    let client: TestClient

    init() async throws {
        broker = try TestBroker()
        client = try await TestClient(port: broker.port, subscriptions: ["noiseclock/#"])
    }

    func root(_ node: NodeProcess) -> String { "noiseclock/\(node.nodeID)" }

    /// A node on this broker (UTC unless `yamlExtra`/`environment` say otherwise), not started.
    func makeNode(_ nodeID: String = "testnode", environment: [String: String] = [:]) throws -> NodeProcess {
        try NodeProcess(brokerPort: broker.port, nodeID: nodeID, environment: environment)
    }

    /// A fresh rig with one node on it, started: how most alarm tests begin.
    static func started(_ nodeID: String = "testnode", environment: [String: String] = [:]) async throws -> (AlarmRig, NodeProcess) {
        let rig = try await AlarmRig()
        do {
            let node = try rig.makeNode(nodeID, environment: environment)
            try await rig.start(node)
            return (rig, node)
        } catch {
            rig.shutdown()
            throw error
        }
    }

    /// Starts (or restarts) `node` and waits until it says `online` and its alarm state is out.
    func start(_ node: NodeProcess) async throws {
        let mark = client.messages.count
        try node.start()
        try await client.waitFor("\(root(node))/availability", timeout: 15, after: mark, where: { $0.text == "online" })
        try await client.waitFor("\(root(node))/alarm", timeout: 5, after: mark)
    }

    /// Sends one command and returns its response.
    @discardableResult
    func command(_ node: NodeProcess, _ topic: String, _ payload: String) async throws -> JSONValue {
        let mark = client.messages.count
        client.publish("\(root(node))/\(topic)", payload)
        let response = try await client.waitFor("\(root(node))/response", timeout: 10, after: mark)
        return try #require(response.json, "response is not JSON: \(response.text)")
    }

    /// Sends a command that must succeed and returns its `result`.
    @discardableResult
    func ok(_ node: NodeProcess, _ topic: String, _ payload: String) async throws -> JSONValue {
        let response = try await command(node, topic, payload)
        #expect(response["ok"] == true, "\(topic) \(payload) → \(response.serialized)")
        return response["result"] ?? .null
    }

    /// Waits until `node` has handled everything sent to it so far (see `TestClient.barrier`).
    func barrier(_ node: NodeProcess) async throws {
        try await client.barrier(root(node))
    }

    /// The last message seen on `~/<suffix>`, parsed.
    func latest(_ node: NodeProcess, _ suffix: String) -> JSONValue? {
        client.messages(on: "\(root(node))/\(suffix)").last?.json
    }

    func messages(_ node: NodeProcess, _ suffix: String, after mark: Int) -> [TestClient.Received] {
        client.messages.dropFirst(mark).filter { $0.topic == "\(root(node))/\(suffix)" }
    }

    /// What a newcomer gets as the retained `~/<suffix>`.
    func retained(_ node: NodeProcess, _ suffix: String) async throws -> JSONValue {
        let late = try await TestClient(port: broker.port, subscriptions: ["\(root(node))/\(suffix)"])
        defer { late.shutdown() }
        let message = try await late.waitFor("\(root(node))/\(suffix)", timeout: 5)
        #expect(message.retain)
        return try #require(message.json)
    }

    func shutdown() { client.shutdown() }
}

extension NodeProcess {
    var alarmsFile: URL { stateDirectory.appendingPathComponent(NodeCore.StateFile.alarms) }

    var alarmsDocument: JSONValue? {
        guard let data = try? Data(contentsOf: alarmsFile) else { return nil }
        return try? JSONParser().parse(Array(data))
    }

    /// Inode and modification time of alarms.json: any rewrite (temp file + rename) changes both.
    var alarmsFileIdentity: String? {
        var info = stat()
        guard stat(alarmsFile.path, &info) == 0 else { return nil }
        return "\(info.st_ino)/\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}

/// Minutes and instants as the contract writes them, in UTC (the test nodes' zone).
enum MinuteBoundary {
    /// `HH:MM` of `date` in UTC, as an alarm's `time`.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    /// The contract's ISO form in UTC: `2026-11-21T06:45:00+00:00`.
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime, .withColonSeparatorInTimeZone]
        return formatter.string(from: date).replacingOccurrences(of: "Z", with: "+00:00")
    }

    static func date(iso text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
