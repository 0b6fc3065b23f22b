import NoiseClockCore

/// The node as the web server sees it: the same command path as MQTT, and snapshots of the
/// state answered in the order of the node's effects (`WebServer.snapshot`).
public protocol WebBackend: Sendable {
    /// Runs one command (parse, core, persist, publish) and returns its response.
    func submit(command: String, payload: [UInt8]) async -> Response
    /// Asks for the whole state; it comes back through `WebServer.snapshot(_:_:)`.
    func requestSnapshot(id: UInt64)
}
