#if canImport(Glibc)
import Glibc
#endif
import Logging
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import NoiseClockThreads
import Synchronization

/// A change of the broker's keys from the web app, applied live and never a lock-out: the client
/// goes to the new broker at once (`offline` left on the old one); connected there within
/// `limitSeconds`, the change stays; otherwise the client goes back to the broker it had, and
/// `status` says why (docs/web.md, "No lock-out"). `settings.json` keeps the old values until
/// the new broker connected: a node restarted meanwhile comes back on the broker that worked.
final class BrokerSwitch: Sendable {
    /// The keys applied live (`mqtt.base_topic` and `node_id` rename every topic: at the next start).
    static let keys: Set<String> = [
        "mqtt.host", "mqtt.port", "mqtt.hosts", "mqtt.client_id", "mqtt.username", "mqtt.password", "mqtt.protocol", "mqtt.keepalive_seconds",
    ]
    static let limitSeconds: Int64 = 10

    struct Trial: Sendable {
        var generation: Int
        var broker: String
        var startedAt: ContinuousClock.Instant
        var startedOnNodeClock: Instant
        /// The keys' values in `settings.json` before the trial and as changed (nil: not there).
        var previous: [String: JSONValue?]
        var wanted: [String: JSONValue?]
    }

    struct State: Sendable {
        /// The configuration whose `mqtt` connected (or the node started with).
        var good: NodeConfiguration
        var trying: NodeConfiguration?
        var trial: Trial?
        /// The last trial's end, for `GET /api/settings`.
        var outcome: JSONValue?
    }

    let client: MQTTClient
    let topics: TopicScheme
    let clock: NodeClock
    let stateDirectory: String
    let logger: Logger
    private let state: Mutex<State>
    /// The trials' watching threads, joined at shutdown (`JobThreadsService`).
    let trials = JobThreads(name: "settings-trial")

    init(client: MQTTClient, running: NodeConfiguration, clock: NodeClock, logger: Logger) {
        self.client = client
        topics = TopicScheme(base: running.mqtt.baseTopic, nodeID: running.nodeID)
        self.clock = clock
        stateDirectory = running.stateDirectory
        self.logger = logger
        state = Mutex(State(good: running))
    }

    /// Called after a change was saved: a new broker (`configuration.mqtt` differs from what the
    /// client runs with) is tried. `before`, `after`: `settings.json` before and after the change.
    func changed(to configuration: NodeConfiguration, before: [String: JSONValue], after: [String: JSONValue]) {
        guard Self.keys.contains(where: { before[$0] != after[$0] }) else { return }
        var target = configuration
        let started = state.withLock { state -> Trial? in
            // Topics stay as the node started (base topic and node id apply at the next start).
            target.mqtt.baseTopic = state.good.mqtt.baseTopic
            if target.mqtt.clientID == "noiseclock-\(target.nodeID)" { target.mqtt.clientID = state.good.mqtt.clientID }
            target.nodeID = state.good.nodeID
            guard target.mqtt != (state.trying ?? state.good).mqtt else { return nil }
            // A second change during a trial keeps the first one's way back: the last broker that worked.
            let previous = state.trial?.previous ?? Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, before[$0]) })
            let options = NodeApplication.mqttOptions(target, topics: topics)
            let generation = client.retarget(to: options, farewell: farewell)
            let trial = Trial(generation: generation, broker: Self.address(target.mqtt), startedAt: .now,
                              startedOnNodeClock: clock.now(), previous: previous,
                              wanted: Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, after[$0]) }))
            state.trying = target.mqtt == state.good.mqtt ? nil : target
            state.trial = state.trying == nil ? nil : trial
            state.outcome = state.trying == nil ? nil : ["state": "connecting", "broker": .string(trial.broker)]
            return state.trial
        }
        guard let started else { return }
        keep(started.previous)
        logger.notice("web app: trying the new broker", metadata: ["broker": "\(started.broker)", "limit_s": "\(Self.limitSeconds)"])
        // No thread to watch the trial (the process is out of them, or stopping): back at once, never a lock-out.
        let watched = (try? trials.start { [self] in watch(started.generation) }) ?? false
        if !watched { rollBack(started) }
    }

    /// `{"state": "connecting" | "connected" | "rolled_back", "broker", "seconds"?, "reason"?}`, or nil before any change.
    var status: JSONValue? { state.withLock { $0.outcome } }

    /// The configuration whose broker connected last (or the node started with): a password set
    /// in the web app is the node's own once it worked (`BrokerProbe` uses it for its user name).
    var connected: NodeConfiguration { state.withLock { $0.good } }

    /// Until the trial `generation` connects, is replaced, or runs out of time (on the monotonic
    /// clock, or on the node's: tests move that one instead of waiting).
    private func watch(_ generation: Int) {
        while true {
            TrialThread.sleep(milliseconds: 50)
            // The node stops: `settings.json` still holds the broker that worked.
            if trials.isStopping { return }
            guard let trial = state.withLock({ $0.trial }), trial.generation == generation else { return }
            let elapsed = ContinuousClock.now - trial.startedAt
            if client.isConnected(generation: generation) {
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                state.withLock { state in
                    guard state.trial?.generation == generation, let trying = state.trying else { return }
                    state.good = trying
                    state.trying = nil
                    state.trial = nil
                    state.outcome = ["state": "connected", "broker": .string(trial.broker), "seconds": .double((seconds * 10).rounded() / 10)]
                }
                keep(trial.wanted)
                logger.notice("web app: the new broker is connected", metadata: ["broker": "\(trial.broker)", "seconds": "\(seconds)"])
                return
            }
            let onNodeClock = clock.now().milliseconds - trial.startedOnNodeClock.milliseconds
            if elapsed >= .seconds(Self.limitSeconds) || onNodeClock >= Self.limitSeconds * 1000 {
                rollBack(trial)
                return
            }
        }
    }

    /// The keys back in `settings.json` as they were, the client back to the broker that worked.
    private func rollBack(_ trial: Trial) {
        let reason = client.connectionFailure ?? "no connection to \(trial.broker) within \(Self.limitSeconds) s"
        let good = state.withLock { state -> NodeConfiguration? in
            guard state.trial?.generation == trial.generation else { return nil }
            state.trying = nil
            state.trial = nil
            let said = "not connected within \(Self.limitSeconds) s (\(reason)); back to \(Self.address(state.good.mqtt))"
            state.outcome = ["state": "rolled_back", "broker": .string(trial.broker), "reason": .string(said)]
            return state.good
        }
        guard let good else { return }
        logger.error("web app: the new broker did not connect; rolled back", metadata: [
            "broker": "\(trial.broker)", "reason": "\(reason)", "back_to": "\(Self.address(good.mqtt))",
        ])
        // settings.json has kept the old values (`keep(previous)` at the start): nothing to undo there.
        // `offline` there too, should the new broker have connected in the last moment.
        _ = client.retarget(to: NodeApplication.mqttOptions(good, topics: topics), farewell: farewell)
    }

    /// The keys as `values` in `settings.json`.
    private func keep(_ values: [String: JSONValue?]) {
        if let failed = SettingsFileLock.put(values, stateDirectory: stateDirectory) {
            logger.error("web app: could not write settings.json", metadata: ["error": "\(failed)"])
        }
    }

    /// `offline` (retained) for the broker the client leaves.
    private var farewell: (topic: String, payload: [UInt8], retain: Bool) { (topics.topic("availability"), Array("offline".utf8), true) }

    static func address(_ mqtt: NodeConfiguration.MQTT) -> String {
        mqtt.hosts.isEmpty ? "\(mqtt.host):\(mqtt.port)" : mqtt.hosts.map { "\($0.host):\($0.port)" }.joined(separator: ", ")
    }
}

/// `settings.json` changed by more than one thread (the web server's, a roll-back's): one at a time.
enum SettingsFileLock {
    static let lock = Mutex(())

    /// `values` (nil: the key removed) into `settings.json`; the error's words, or nil.
    static func put(_ values: [String: JSONValue?], stateDirectory: String) -> String? {
        update(stateDirectory: stateDirectory) { stored in
            for (key, value) in values {
                if let value { stored[key] = value } else { stored.removeValue(forKey: key) }
            }
        }
    }

    /// Reads, changes and writes `settings.json` under the lock; the error's words, or nil.
    static func update(stateDirectory: String, _ change: (inout [String: JSONValue]) -> Void) -> String? {
        lock.withLock { _ -> String? in
            var ignored: [ConfigurationWarning] = []
            var stored = WebSettings.stored(stateDirectory: stateDirectory, warnings: &ignored)
            change(&stored)
            do {
                let setupDone = WebSettings.setupDone(stateDirectory: stateDirectory)
                try StateStore(directory: stateDirectory).write(WebSettings.fileName, WebSettings.document(stored, setupDone: setupDone))
                return nil
            } catch {
                return "\(error)"
            }
        }
    }
}

/// The thread that watches one trial (a broker's, a web address's; each switch's `trials`): it
/// sleeps between looks and writes `settings.json` when the trial ends, so neither the cooperative
/// pool nor the web thread waits for the disk. It ends with its trial, or at the node's stop.
enum TrialThread {
    static func sleep(milliseconds: UInt32) {
        _ = usleep(milliseconds * 1000)
    }
}
