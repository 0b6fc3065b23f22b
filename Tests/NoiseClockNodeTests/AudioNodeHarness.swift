import Foundation
import NoiseClockCore

/// A broker, a node playing into an `AudioCapture`, and a client on the node's topics.
final class AudioNodeHarness: @unchecked Sendable {
    /// Plain RMS at full volume of the noises these tests play. The noises are matched in
    /// A-weighted loudness (SoundLevel.noiseLoudness), not RMS, so brown (most of its power
    /// low, where the ear is least sensitive) has the higher RMS. Measured over 5 min of `render`.
    static let noiseRMS: [String: Double] = ["white": 0.04324, "brown": 0.1236]

    let broker: TestBroker
    let node: NodeProcess
    let capture: AudioCapture
    let client: TestClient
    var root: String { "noiseclock/\(node.nodeID)" }

    convenience init(capture: AudioCapture, yamlExtra: String = "", environment: [String: String]? = nil) async throws {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port, yamlExtra: yamlExtra, environment: environment ?? capture.environment)
        try await self.init(broker: broker, node: node, capture: capture)
    }

    /// Starts `node` (prepared by the caller, not yet started) on `broker`.
    init(broker: TestBroker, node: NodeProcess, capture: AudioCapture) async throws {
        self.broker = broker
        self.capture = capture
        self.node = node
        try node.start()
        client = try await TestClient(port: broker.port, subscriptions: ["noiseclock/\(node.nodeID)/#"])
        try await client.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })
    }

    /// The usual start of a test at the speaker: a node playing into a new capture on `device`,
    /// with `environment` over the capture's own, its audio `ok`.
    static func started(device: String, environment: [String: String] = [:]) async throws -> AudioNodeHarness {
        let capture = try AudioCapture(device: device)
        let harness = try await AudioNodeHarness(capture: capture, environment: capture.environment.merging(environment) { $1 })
        do {
            try await harness.waitForAudio("ok")
        } catch {
            harness.shutdown()
            throw error
        }
        return harness
    }

    /// Adds the station `url` as `jazz` (`station/add`), as the radio tests name theirs.
    func addStation(_ url: String, id: String = "jazz", name: String = "Jazz") async throws {
        try await command("station/add", #"{"id": "\#(id)", "name": "\#(name)", "url": "\#(url)"}"#)
    }

    /// Stops the node (SIGTERM) and starts it again on the same state, waiting until it is online.
    func restart() async throws {
        node.signal(SIGTERM)
        guard node.waitForExit() != nil else { throw TestFailure("node did not stop") }
        let mark = client.messages.count
        try node.start()
        try await client.waitFor("\(root)/availability", timeout: 10, after: mark, where: { $0.text == "online" })
    }

    /// Waits for `~/audio` with `status`, published after message index `after`.
    @discardableResult
    func waitForAudio(_ status: String, timeout: Double = 10, after: Int = 0) async throws -> TestClient.Received {
        try await client.waitFor("\(root)/audio", timeout: timeout, after: after, where: { $0.json?["status"]?.stringValue == status })
    }

    /// Sends a command, waits for its successful response, and returns the response and the
    /// capture's frame count at that moment (the node hands the scene to the engine before it answers).
    @discardableResult
    func command(_ topic: String, _ payload: String) async throws -> (response: JSONValue, mark: Int) {
        let index = client.messages.count
        client.publish("\(root)/\(topic)", payload)
        let response = try await client.waitFor("\(root)/response", after: index, where: { $0.json?["command"]?.stringValue == topic })
        let mark = capture.frames
        guard response.json?["ok"] == .bool(true), let json = response.json else { throw TestFailure("\(topic) refused: \(response.text)") }
        return (json, mark)
    }

    /// The expected RMS of `sound` at `volume` (the node's square-law volume curve).
    static func expectedRMS(_ sound: String, volume: Int) -> Double { noiseRMS[sound]! * Double(AudioScene.gain(volume: volume)) }

    func shutdown() { client.shutdown() }
}

/// Sleeps without blocking the test's thread pool.
func pause(_ seconds: Double) async throws { try await Task.sleep(for: .milliseconds(Int(seconds * 1000))) }
