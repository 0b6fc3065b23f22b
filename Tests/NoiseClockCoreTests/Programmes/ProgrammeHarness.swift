import Testing
@testable import NoiseClockCore

/// A whole `NodeCore` driven by hand: commands, a clock the test moves, and restarts from the
/// state files it would have written. Routines, timers and mixes act across features, so they
/// are tested through the core rather than feature by feature.
struct ProgrammeHarness {
    static let catalog = SoundCatalog(
        noise: [
            .init(id: "brown", name: "Brown", category: "noise"), .init(id: "pink", name: "Pink", category: "noise"),
            .init(id: "rain", name: "Rain", category: "nature"), .init(id: "white", name: "White", category: "noise"),
        ],
        alarm: [.init(id: "chime", name: "Chime", category: "tone"), .init(id: "classic", name: "Classic", category: "alarm")]
    )

    var core: NodeCore
    var now: Instant
    var outbox: [Publication] = []

    init(zone: ZoneRules = AlarmTestZones.berlin, now: String, documents: [String: JSONValue] = [:], devices: DeviceSettings = DeviceSettings()) {
        self.now = instant(now)
        core = NodeCore(settings: NodeSettings(nodeID: "bed", locale: .en, zone: zone, devices: devices), catalog: Self.catalog,
                        documents: documents, now: self.now)
    }

    var context: FeatureContext { core.context(now) }

    @discardableResult
    mutating func send(_ topic: String, _ payload: String = "") -> Result<JSONValue, CommandError> {
        switch CommandMessage.parse(topic: topic, payload: Array(payload.utf8)) {
        case .refused(let response): return response.outcome
        case .command(let message): return core.handle(message, now: now, outbox: &outbox).outcome
        }
    }

    /// A command that must succeed; its result.
    @discardableResult
    mutating func ok(_ topic: String, _ payload: String = "", sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
        switch send(topic, payload) {
        case .success(let value): return value
        case .failure(let error):
            Issue.record("\(topic) \(payload) refused: \(error.message)", sourceLocation: sourceLocation)
            return .null
        }
    }

    mutating func refused(_ topic: String, _ payload: String = "") -> CommandError? {
        if case .failure(let error) = send(topic, payload) { return error }
        return nil
    }

    mutating func advance(to iso: String) { advance(to: instant(iso)) }

    mutating func advance(to instant: Instant) {
        now = instant
        core.advance(to: now, outbox: &outbox)
    }

    /// Wakes at every deadline up to `iso`, as the node would, then at `iso`.
    mutating func run(until iso: String) {
        let limit = instant(iso)
        var steps = 0
        while case let deadline = core.nextDeadline(after: now), deadline <= limit, steps < 20_000 {
            advance(to: max(deadline, now))
            steps += 1
        }
        advance(to: limit)
    }

    /// A node coming back at `iso` from the files this one would have written.
    mutating func restart(at iso: String) {
        let documents = core.persistentState()
        let zone = core.settings.zone
        self = ProgrammeHarness(zone: zone, now: iso, documents: documents, devices: core.settings.devices)
        core.advance(to: now, outbox: &outbox)
    }

    /// `event id` for each event on `topic` so far; clears the outbox.
    mutating func take(_ topic: String) -> [String] {
        defer { outbox.removeAll() }
        return bodies(topic).map { "\($0["event"]?.stringValue ?? "?") \($0["id"]?.stringValue ?? "?")" }
    }

    func bodies(_ topic: String) -> [JSONValue] {
        outbox.filter { $0.topic == topic }.compactMap { if case .json(let body) = $0.body { body } else { nil } }
    }

    /// The retained payload on `topic`, as the node would publish it now.
    func retained(_ topic: String) -> JSONValue? {
        core.retainedState(now: now).first { $0.topic == topic }.flatMap { if case .json(let body) = $0.body { body } else { nil } }
    }

    var noise: JSONValue { retained("noise") ?? .null }
    var scene: AudioScene { core.audioScene(now: now) }
}
