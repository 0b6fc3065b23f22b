import NoiseClockCore

/// The node as the web server sees it: a way in for commands and snapshot requests. Nothing
/// comes back through it: the node's loop answers through the server itself, in the order of its
/// effects (`WebServer.reply`, `WebServer.snapshot`, `WebServer.observe`).
public protocol WebBackend: Sendable {
    /// One `POST /api/<command>` of the command table, for the waiting connection `id` (which came
    /// through the listening address `via`, `host:port`): refused here on the server's thread, or
    /// handed to the node or an adapter (the settings commands to the node's loop, which writes
    /// `settings.json`), whose answer comes back through `WebServer.reply(_:_:)` or
    /// `WebServer.answer(_:_:)` with the same `id`. Every answer echoes `request.requestID`.
    func take(_ request: WebCommandRequest, id: UInt64, via address: String) -> WebCommandRequest.Taken
    /// Asks for the whole state; it comes back through `WebServer.snapshot(_:_:)`.
    func requestSnapshot(id: UInt64)
    /// `GET /api/backup`: the backup document, or the error that kept it from being made. Called
    /// on the server's thread: it reads a few small files.
    func backup(secrets: Bool) -> HTTPResponse
    /// `GET /api/settings`, answered on the server's thread.
    func settings() -> HTTPResponse
    /// `GET /api/audio/devices`, answered on the server's thread (ALSA's hints: a few ms).
    func audioDevices() -> HTTPResponse
    /// `GET /api/stations/search` (v1.4): starts the search for the waiting connection `id`, whose
    /// answer comes through `WebServer.answer(_:_:)`. False: no directory here (404).
    func searchStations(id: UInt64, query: StationSearchQuery) -> Bool
}

extension WebBackend {
    public func audioDevices() -> HTTPResponse { .error(404, code: "unknown_command", "no sound devices here") }

    public func searchStations(id: UInt64, query: StationSearchQuery) -> Bool { false }
}
