/// The node's reaction to the world as one pure function: `plan(input, now)` says which state
/// files to write and, once they are written, what to publish, play, arm and log. The service
/// writes the files, calls `finish` with how that went, and carries out the effects it returns.
///
/// The machine routes: the features' state and rules live in the `NodeCore` (alarms, style,
/// noise, …) and in `MachineFeatures` (speech, buttons, waiting checks). The machine itself only
/// remembers what the outside world was last told — retained topics, discovery configs, state
/// files, the audio scene, the timer's arming — so it sends only what changed, and what to re-send
/// after a reconnect or a Home Assistant restart.
public struct NodeMachine: Sendable {
    public internal(set) var core: NodeCore
    public let topics: TopicScheme
    public let discovery: DiscoverySettings
    /// Connected and announced: retained state may go out. Until then it waits for `connected`,
    /// so `online` is always the first thing a session publishes.
    public internal(set) var online = false
    /// The web app is on: publications are also given as `observe` effects, and retained
    /// state is tracked while MQTT is down.
    public let observed: Bool
    /// When to answer Home Assistant's birth message (a random 1–5 s after it).
    public internal(set) var republishAt: Instant?
    /// What each retained topic (relative to `~/`) last carried.
    var lastRetained: [String: [UInt8]] = [:]
    /// What each discovery config topic (absolute) last carried.
    var lastDiscovery: [String: [UInt8]] = [:]
    /// What the discovery configs were last built from; unchanged inputs need no rebuild.
    var discoveryInputs: DiscoveryInputs?
    /// Config topics of this node found retained on the broker that it does not announce (now):
    /// left by an earlier run, or by any run when discovery is off.
    var strayDiscovery: Set<String> = []
    /// What each state file last held.
    var lastPersisted: [String: String]
    /// Per state file, the fields it held at start that this node does not know: written back with it.
    var unknownFields: [String: UnknownFields]
    /// The feature values `lastRetained` and `lastPersisted` were made from: an unchanged
    /// feature is neither rendered nor serialized again (most inputs change one feature or none).
    var retainedFrom: [FeatureID: any NodeFeature] = [:]
    var persistedFrom: [String: any NodeFeature] = [:]
    /// The scene last handed to the audio engine.
    var lastScene: AudioScene?
    /// The instant the wake timer is armed for (nil once it fired).
    var armedAt: Instant?
    var random: SplitMix64
    /// Speech, buttons and waiting checks: the features the machine answers itself, each a typed
    /// owner of its state and rules (the machine keeps none of their state itself).
    var features: MachineFeatures
    /// `~/info`, published after `online` on every connect; nil: not published (tests of the core).
    public let info: NodeInfo?

    /// - Parameters:
    ///   - persisted: the state files as read at start, so unchanged ones are not rewritten.
    ///   - seed: for the birth re-publication's random delay.
    ///   - observed: whether a web app follows the node (`observe` and `snapshot` effects).
    public init(
        core: NodeCore, topics: TopicScheme, discovery: DiscoverySettings, persisted: [String: JSONValue], seed: UInt64,
        observed: Bool = false, buttons: ButtonBoard = ButtonBoard(), speech: SpeechSettings = SpeechSettings(), info: NodeInfo? = nil
    ) {
        self.info = info
        features = MachineFeatures(speaker: Speaker(settings: speech), buttons: buttons)
        self.core = core
        self.observed = observed
        self.topics = topics
        self.discovery = discovery
        lastPersisted = persisted.mapValues(\.serialized)
        unknownFields = NodeCore.unknownFields(persisted)
        random = SplitMix64(seed: seed)
    }

    /// Decides what `input` at `now` does. Nothing changes until `finish`.
    public func plan(_ input: NodeInput, now: Instant) -> NodePlan {
        var draft = Draft(machine: self, now: now)
        switch input {
        case .connected: draft.connected()
        case .disconnected: draft.disconnected()
        case .message(let message): draft.message(message)
        case .request(let request): draft.command(request.command, payload: request.payload, origin: .local(request.id))
        case .wake: draft.tick(clockChanged: false)
        case .clockChanged: draft.tick(clockChanged: true)
        case .battery(let reading): draft.battery(reading)
        case .audio(let status): draft.audioStatus(status)
        case .alarmSound(let report): draft.alarmSound(report)
        case .clockSync(let synced): draft.clockSync(synced)
        case .snapshot(let id): draft.snapshot(id)
        case .button(let input): draft.button(input)
        case .spoken(let outcome): draft.spoken(outcome)
        case .stationProbed(let outcome): draft.stationProbed(outcome)
        case .stationTitle(let title): draft.stationTitle(title)
        case .stationOutage(let outage): draft.stationOutage(outage)
        case .soundsChanged(let summary): draft.soundsChanged(summary)
        case .readiness(let report): draft.readiness(report)
        case .restore(let request): draft.restore(request)
        case .restart(let request): draft.restart(request)
        case .timeSettings(let zone, let locale): draft.timeSettings(zone: zone, locale: locale)
        case .rebind(let bindings): draft.rebind(bindings)
        case .settings(let edit): draft.settings(edit)
        case .soundSettings(let device, let folder): draft.soundSettings(device: device, soundsDirectory: folder)
        }
        return draft.plan(timerSpent: input == .wake || input == .clockChanged)
    }

    /// Adopts the plan after its writes: all of them done (`failure` nil) or the first `written`.
    /// A command whose change could not be saved is refused (`storage_error`) and changes nothing;
    /// a time-driven change (a fire, a time-out) cannot be refused: it is kept in memory, logged,
    /// and its file is written again with the next change.
    public mutating func finish(_ plan: NodePlan, failure: WriteFailure?) -> [NodeEffect] {
        guard let failure else {
            self = plan.machine
            return plan.effects
        }
        let unwritten = plan.writes.dropFirst(failure.written)
        guard let refusal = plan.refusal else {
            var next = plan.machine
            for write in unwritten {
                next.lastPersisted[write.file] = lastPersisted[write.file]
                next.persistedFrom[write.file] = nil
            }
            self = next
            return plan.effects + [.log(LogRecord(.error, "state not saved", ["error": failure.message]))]
        }
        // The files written before the failure hold the new state: remember that, so the next
        // change compares against what is really on disk.
        for write in plan.writes.prefix(failure.written) {
            lastPersisted[write.file] = write.text
            persistedFrom[write.file] = nil
        }
        let error = CommandError(.storageError, "could not save the change: \(failure.message)")
        var effects = respond(Response(command: refusal.command, requestID: refusal.requestID, outcome: .failure(error)), to: refusal.origin)
        effects.append(.log(LogRecord(.error, "state not saved; command refused", ["command": refusal.command, "error": failure.message])))
        return effects
    }

    /// The instant the wake timer should be armed for.
    public func nextDeadline(now: Instant) -> Instant {
        var due = core.nextDeadline(after: now)
        if let test = features.deviceProbes.deadline { due = min(due, test) }
        return republishAt.map { min($0, due) } ?? due
    }
}

/// What one input does: the writes to make first, then the machine and the effects to adopt.
public struct NodePlan: Sendable {
    /// State files to write, in order, before any effect.
    public let writes: [StateWrite]
    /// The machine once every write succeeded.
    let machine: NodeMachine
    /// The effects once every write succeeded.
    public let effects: [NodeEffect]
    /// Set for a command: how to refuse it if a write fails.
    let refusal: Refusal?

    struct Refusal: Sendable {
        var command: String
        var requestID: JSONValue?
        var origin: CommandOrigin
    }
}

/// Where a command came from, and so where its response goes.
enum CommandOrigin: Sendable, Equatable {
    case mqtt(InboundMessage)
    case local(UInt64)
}
