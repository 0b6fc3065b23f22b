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
/// Its file writes are the loop's: at the start inside the Save's effect, at the connection by
/// handing the trial to the loop (`settleLater`, `SettingsEdit.brokerConnected`), which keeps its
/// keys, then says `connected`.
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
    /// Hands the trial of this generation, connected, to the node's loop (`SettingsEdit.brokerConnected`).
    let settleLater: @Sendable (Int) -> Void
    let logger: Logger
    private let state: Mutex<State>
    /// The trials' watching threads, joined at shutdown (`JobThreadsService`).
    let trials = JobThreads(name: "settings-trial")

    init(client: MQTTClient, running: NodeConfiguration, clock: NodeClock, logger: Logger,
         settleLater: @escaping @Sendable (Int) -> Void) {
        self.client = client
        topics = TopicScheme(base: running.mqtt.baseTopic, nodeID: running.nodeID)
        self.clock = clock
        self.settleLater = settleLater
        self.logger = logger
        state = Mutex(State(good: running))
    }

    /// Called on the node's loop after a change was saved: a new broker (`configuration.mqtt`
    /// differs from what the client runs with) is tried, its keys put back as they were through
    /// `writer`. `before`, `after`: `settings.json` before and after the change.
    func changed(to configuration: NodeConfiguration, before: [String: JSONValue], after: [String: JSONValue], writer: SettingsWriter) {
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
        keep(started.previous, writer: writer)
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
                // This thread writes no file: the loop keeps the keys (`settle`), after whatever it is doing now.
                settleLater(generation)
                return
            }
            let onNodeClock = clock.now().milliseconds - trial.startedOnNodeClock.milliseconds
            if elapsed >= .seconds(Self.limitSeconds) || onNodeClock >= Self.limitSeconds * 1000 {
                rollBack(trial)
                return
            }
        }
    }

    /// On the node's loop: the trial `generation` connected (its watching thread saw it). Its keys
    /// stay in `settings.json`, then `status` says `connected`; a trial that replaced it meanwhile
    /// is left as it is.
    func settle(_ generation: Int, writer: SettingsWriter) {
        let settled = state.withLock { state -> Trial? in
            guard let trial = state.trial, trial.generation == generation, let trying = state.trying else { return nil }
            state.good = trying
            state.trying = nil
            state.trial = nil
            return trial
        }
        guard let trial = settled else { return }
        keep(trial.wanted, writer: writer)
        let elapsed = (ContinuousClock.now - trial.startedAt).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        state.withLock { state in
            state.outcome = ["state": "connected", "broker": .string(trial.broker), "seconds": .double((seconds * 10).rounded() / 10)]
        }
        logger.notice("web app: the new broker is connected", metadata: ["broker": "\(trial.broker)", "seconds": "\(seconds)"])
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
    private func keep(_ values: [String: JSONValue?], writer: SettingsWriter) {
        if let failed = writer.put(values) {
            logger.error("web app: could not write settings.json", metadata: ["error": "\(failed)"])
        }
    }

    /// `offline` (retained) for the broker the client leaves.
    private var farewell: (topic: String, payload: [UInt8], retain: Bool) { (topics.topic("availability"), Array("offline".utf8), true) }

    static func address(_ mqtt: NodeConfiguration.MQTT) -> String {
        mqtt.hosts.isEmpty ? "\(mqtt.host):\(mqtt.port)" : mqtt.hosts.map { "\($0.host):\($0.port)" }.joined(separator: ", ")
    }
}

/// The thread that watches one trial (a broker's, a web address's; each switch's `trials`): it
/// sleeps between looks and, when the broker connected, hands the trial to the node's loop, which
/// writes `settings.json`: neither the cooperative pool nor the web thread waits for the disk. It
/// ends with its trial, or at the node's stop.
enum TrialThread {
    static func sleep(milliseconds: UInt32) {
        _ = usleep(milliseconds * 1000)
    }
}
