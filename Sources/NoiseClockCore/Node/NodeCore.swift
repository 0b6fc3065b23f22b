/// The whole node as a value: everything it knows and every rule for changing it. The node
/// service owns one, hands it events with the current instant, and carries out what comes back.
/// Being a value, a change that cannot be persisted is rolled back by keeping the old copy.
public struct NodeCore: Sendable {
    public var settings: NodeSettings
    public var catalog: SoundCatalog
    /// The next `~/time` boundary to publish at; nil until time first advances.
    public internal(set) var timeCursor: Instant?

    public init(settings: NodeSettings, catalog: SoundCatalog = .empty, documents: [String: JSONValue] = [:]) {
        self.settings = settings
        self.catalog = catalog
    }

    func context(_ now: Instant) -> FeatureContext {
        FeatureContext(now: now, zone: settings.zone, locale: settings.locale, catalog: catalog)
    }

    /// Applies one command. Events to publish go into `outbox`; the response is returned.
    /// A refused command leaves the core unchanged.
    public mutating func handle(_ message: CommandMessage, now: Instant, outbox: inout [Publication]) -> Response {
        let result: Result<JSONValue, CommandError>
        switch message.topic {
        default:
            result = .failure(CommandError(.unknownCommand, "\(message.topic.rawValue) is not available on this node yet"))
        }
        if case .success = result { advance(to: now, outbox: &outbox) }
        return Response(command: message.topic.rawValue, requestID: message.payload.requestID, outcome: result)
    }

    /// Moves the node to `now`: publishes the time on boundaries and fires whatever is due.
    public mutating func advance(to now: Instant, outbox: inout [Publication]) {
        advanceTime(to: now, outbox: &outbox)
    }

    /// The system clock was set: forget plans made on the old clock.
    public mutating func clockChanged(now: Instant, outbox: inout [Publication]) {
        timeCursor = nil
        advance(to: now, outbox: &outbox)
    }

    /// The earliest instant something is due; the node arms its wake-up timer for it.
    public func nextDeadline(after now: Instant) -> Instant {
        timeCursor ?? now.nextBoundary(every: timePeriodSeconds)
    }

    /// Retained state, topic by topic: published at start, on every reconnect, and when it changes.
    public func retainedState(now: Instant) -> [Publication] {
        []
    }

    /// Every state file the core reads at start.
    public static let stateFileNames: [String] = []

    /// The state files to keep in `state_dir`, by file name.
    public func persistentState() -> [String: JSONValue] {
        [:]
    }
}
