import Foundation

/// A test's MQTT client that records every message it receives, in order (`TestClient`,
/// `RecordingClient`), and the waits they share.
protocol ReceivingClient {
    var messages: [TestClient.Received] { get }
}

extension ReceivingClient {
    func messages(on topic: String) -> [TestClient.Received] { messages.filter { $0.topic == topic } }

    /// Waits for a message on `topic` matching `predicate`, received after index `after`. The
    /// timeout is an upper bound for a loaded machine running suites in parallel, not a measure.
    @discardableResult
    func waitFor(_ topic: String, timeout: Double = 15, after: Int = 0,
                 where predicate: @Sendable (TestClient.Received) -> Bool = { _ in true }) async throws -> TestClient.Received {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = messages
            if let match = all.dropFirst(after).first(where: { $0.topic == topic && predicate($0) }) { return match }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("no message on \(topic) within \(timeout) s; saw: \(messages.suffix(8).map { "\($0.topic) \($0.text.prefix(160))" })")
    }
}
