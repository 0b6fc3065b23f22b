import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform

/// The node's moving parts around one `NodeCore`: it turns events into core calls and carries
/// out the results in a fixed order — persist, then publish events, retained state and the
/// response. Owned and driven by `NodeService.run()` alone, one event at a time.
struct NodeRuntime {
    private(set) var core: NodeCore
    let mqtt: MQTTClient
    let audio: AudioEngine?
    let topics: TopicScheme
    let discovery: DiscoverySettings
    let store: StateStore
    let logger: Logger
    let clock: @Sendable () -> Instant
    /// What each retained topic last carried, so unchanged state is not re-published.
    private var lastRetained: [String: [UInt8]] = [:]
    /// What each discovery config topic last carried (absolute topics).
    var lastDiscovery: [String: [UInt8]] = [:]
    /// Config topics of this node found retained on the broker that it does not announce (now):
    /// left by an earlier run, or by any run when discovery is off. Cleared by `syncDiscovery`.
    var strayDiscovery: Set<String> = []
    /// When to answer Home Assistant's birth message.
    var republishAt: Instant?
    /// What each state file last held, so unchanged state is not rewritten.
    private var lastPersisted: [String: String]
    /// The scene last handed to the audio engine.
    private var lastScene: AudioScene?
    /// Connected and announced: retained state may go out. Until then it waits for `connected()`,
    /// so `online` is always the first thing a session publishes.
    private(set) var online = false

    init(core: NodeCore, mqtt: MQTTClient, audio: AudioEngine?, topics: TopicScheme, discovery: DiscoverySettings,
         store: StateStore, persisted: [String: JSONValue], logger: Logger, clock: @escaping @Sendable () -> Instant) {
        self.core = core
        self.discovery = discovery
        self.mqtt = mqtt
        self.audio = audio
        self.topics = topics
        self.store = store
        self.logger = logger
        self.clock = clock
        self.lastPersisted = persisted.mapValues(\.serialized)
    }

    // MARK: Events

    mutating func connected() {
        publish(topic: "availability", bytes: Array("online".utf8), qos: 1, retain: true)
        online = true
        forgetRetained()
        syncDiscovery(force: true)
        var outbox: [Publication] = []
        var next = core
        next.advance(to: clock(), outbox: &outbox)
        commit(next, outbox: outbox)
    }

    mutating func disconnected() {
        online = false
    }

    mutating func tick(clockChanged: Bool) {
        let now = clock()
        var next = core
        var outbox: [Publication] = []
        if clockChanged {
            logger.notice("system clock changed; re-planning", metadata: ["now": "\(now)"])
            next.clockChanged(now: now, outbox: &outbox)
        } else {
            next.advance(to: now, outbox: &outbox)
        }
        commit(next, outbox: outbox)
        republishIfDue()
    }

    mutating func battery(_ reading: BatteryReading) {
        var next = core
        var outbox: [Publication] = []
        next.batteryRead(reading, now: clock(), outbox: &outbox)
        // Most polls change nothing: skip the retained and discovery comparison then.
        guard !outbox.isEmpty || next.battery != core.battery else { return }
        commit(next, outbox: outbox)
    }

    mutating func audioStatus(_ status: AudioStatus) {
        if status.state == .unavailable {
            logger.warning("audio unavailable", metadata: ["device": "\(status.device)", "error": "\(status.error ?? "")"])
        } else {
            logger.info("audio ok", metadata: ["device": "\(status.device)"])
        }
        var next = core
        next.audioChanged(status)
        commit(next, outbox: [])
    }

    mutating func message(_ message: MQTTMessage) {
        if message.topic == discovery.birthTopic {
            homeAssistantBirth(message.payload)
        } else if discovery.isConfigTopic(message.topic, nodeID: topics.nodeID) {
            foundRetainedConfig(message)
        } else {
            command(message)
        }
    }

    private mutating func command(_ message: MQTTMessage) {
        guard let suffix = topics.commandSuffix(of: message.topic) else { return }
        guard !message.retain else {
            // A retained command would run again on every reconnect and restart (an alarm added
            // twice, a volume reset every morning): refuse it and say how to fix it.
            logger.warning("retained command ignored", metadata: ["topic": "\(message.topic)"])
            let error = CommandError.invalidField("retain", "retained commands are ignored: publish commands without the retain flag, and clear this one with an empty retained message")
            respond(Response(command: suffix, requestID: nil, outcome: .failure(error)), to: message)
            return
        }
        let now = clock()
        var response: Response
        var outbox: [Publication] = []
        var next = core
        switch CommandMessage.parse(topic: suffix, payload: message.payload) {
        case .refused(let refusal):
            response = refusal
        case .command(let command):
            response = next.handle(command, now: now, outbox: &outbox)
        }
        if response.ok {
            do {
                try persist(next)
            } catch {
                logger.error("state not saved; command refused", metadata: ["command": "\(suffix)", "error": "\(error)"])
                response.outcome = .failure(CommandError(.storageError, "could not save the change: \(error.description)"))
                next = core
                outbox = []
            }
        }
        if response.ok {
            logger.info("command", metadata: ["command": "\(suffix)", "ok": "true"])
            commit(next, outbox: outbox, persisted: true)
        } else if case .failure(let error) = response.outcome {
            logger.info("command refused", metadata: ["command": "\(suffix.prefix(80))", "code": "\(error.code.rawValue)", "message": "\(error.message)"])
        }
        respond(response, to: message)
    }

    // MARK: Carrying out

    /// Adopts `next` as the node's state: saves what changed (unless the caller already did),
    /// publishes the events and the retained topics that changed, and re-arms the timer.
    private mutating func commit(_ next: NodeCore, outbox: [Publication], persisted: Bool = false) {
        if !persisted {
            do {
                try persist(next)
            } catch {
                // Time-driven changes (a fire, a timeout) cannot be refused; keep them in memory,
                // say so, and retry the write on the next change.
                logger.error("state not saved", metadata: ["error": "\(error)"])
            }
        }
        core = next
        for publication in outbox {
            // Retained state waits for `connected()`, which publishes all of it after `online`.
            if publication.retain && !online { continue }
            let bytes = publication.body.bytes
            if publish(topic: publication.topic, bytes: bytes, qos: publication.qos, retain: publication.retain), publication.retain {
                lastRetained[publication.topic] = bytes
            }
        }
        syncDiscovery()
        syncRetained()
        updateAudio()
    }

    private mutating func updateAudio() {
        guard let audio else { return }
        let scene = core.audioScene(now: clock())
        guard scene != lastScene else { return }
        lastScene = scene
        audio.apply(scene)
    }

    private mutating func persist(_ next: NodeCore) throws(PlatformError) {
        for (name, document) in next.persistentState() {
            let text = document.serialized
            guard lastPersisted[name] != text else { continue }
            try store.write(name, document)
            lastPersisted[name] = text
        }
    }

    mutating func forgetRetained() { lastRetained = [:] }

    mutating func syncRetained() {
        guard online else { return }
        for publication in core.retainedState(now: clock()) {
            let bytes = publication.body.bytes
            guard lastRetained[publication.topic] != bytes else { continue }
            if publish(topic: publication.topic, bytes: bytes, qos: publication.qos, retain: true) {
                lastRetained[publication.topic] = bytes
            }
        }
    }

    private func respond(_ response: Response, to message: MQTTMessage) {
        let bytes = response.json.bytes
        publish(topic: "response", bytes: bytes, qos: 1, retain: false)
        if let replyTopic = message.responseTopic, !replyTopic.isEmpty, !replyTopic.contains("+"), !replyTopic.contains("#") {
            mqtt.publish(topic: replyTopic, payload: bytes, qos: 1, retain: false, correlationData: message.correlationData)
        }
    }

    @discardableResult
    private func publish(topic: String, bytes: [UInt8], qos: Int32, retain: Bool) -> Bool {
        mqtt.publish(topic: topics.topic(topic), payload: bytes, qos: qos, retain: retain)
    }

    var nextDeadline: Instant {
        let core = core.nextDeadline(after: clock())
        return republishAt.map { min($0, core) } ?? core
    }
}
