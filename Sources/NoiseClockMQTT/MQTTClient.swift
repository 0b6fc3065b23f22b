import CMosquitto
import Glibc
import Logging
import NoiseClockThreads
import Synchronization

/// An MQTT client over libmosquitto with its own network thread.
///
/// The thread connects, runs `mosquitto_loop`, and on any failure waits and reconnects with
/// exponential back-off (libmosquitto's own `loop_forever` gives up on TLS and auth errors; a
/// bedside clock must not). Every (re)connect subscribes to `subscriptions` and, once the broker
/// has acknowledged them all (SUBACK), reports `.connected`, so the owner re-publishes its retained
/// state (`online` first) only where commands reach it. A broker that drops the connection before
/// acknowledging them refused the session: the next connection uses another client id
/// (`ClientIdentity`: a crashed RabbitMQ 3.10 node holds the old id's queue).
///
/// Events (connected, disconnected, messages) go one way: to the `onEvent` handler, called on
/// the network thread in order, which only hands them on (the node yields them into its inbox:
/// one thread hand-off between a command's arrival and its handling).
///
/// Teardown order (`shutdown`): publish the final message, wait until it is sent, DISCONNECT,
/// let the thread finish, destroy the handle (on the last reference).
public final class MQTTClient: @unchecked Sendable {
    // @unchecked Sendable: `mosq` is only used in ways libmosquitto allows from several threads
    // once `mosquitto_threaded_set(true)` is on (publish and subscribe from any thread, the loop
    // on ours), other threads only under `sending`, which the network thread holds while it
    // re-initialises the handle for a new client id; everything else that changes lives in
    // `state`, a `Mutex` shared by the network thread and the callers.
    private struct State {
        /// The broker accepted the connection and acknowledged every subscription.
        var connected = false
        /// The broker accepted the connection (CONNACK); SUBACKs may still be due.
        var accepted = false
        /// Subscriptions sent on this connection and not yet acknowledged, by message id.
        var pendingSubscriptions: Set<Int32> = []
        /// The last connection ended accepted but before its subscriptions were acknowledged (set
        /// when it ends: libmosquitto reports the end inside the loop; the loop takes it).
        var sessionRefused = false
        /// The client id of the current connection (`ClientIdentity.current`).
        var clientID = ""
        /// The broker being connected to (`host:port`), one of `options.brokers`.
        var broker = ""
        var stopping = false
        var finalMessage: (topic: String, payload: [UInt8], retain: Bool)?
        /// Set by whoever publishes the final message: `shutdown` itself while connected (that
        /// wakes the loop at once), else the loop.
        var finalMessageClaimed = false
        var finalMessageID: Int32?
        /// Acknowledged, or its publish failed: the loop stops waiting.
        var finalMessageDone = false
        /// PUBACKs while stopping: the final message's may beat `shutdown` storing its id.
        var acknowledgedWhileStopping: Set<Int32> = []
        /// QoS 1 events published while offline, sent in order after the next connect (and,
        /// while `flushing`, whatever is published meanwhile).
        var outbox: [Outgoing] = []
        /// True while the network thread sends the outbox after a connect: `publish` then appends
        /// to it too, so nothing published meanwhile overtakes what waited.
        var flushing = false
        /// Failures already logged at error level since the last good connection.
        var failuresLogged: Set<String> = []
        /// The broker's refusal of the current attempt (CONNACK reason), if any.
        var refusal: String?
        /// libmosquitto's last error-level log line (OpenSSL's reason for a TLS failure).
        var libraryError: String?
        /// Why the last attempt to connect failed, or the connection was lost; nil once connected.
        var lastFailure: String?
        /// Another broker to go to (`retarget`), taken by the network thread at its next turn.
        var retarget: MQTTOptions?
        /// Counts the retargets the network thread has taken: `isConnected(generation:)`.
        var generation = 0
        var requestedGeneration = 0
        /// The farewell published to the broker being left (`retarget`), and whether it was acknowledged.
        var farewell: (topic: String, payload: [UInt8], retain: Bool)?
        var farewellID: Int32?
        var farewellDone = false
        /// `retarget` published the farewell itself (which wakes the network thread at once).
        var farewellSent = false
    }

    public static let outboxLimit = 1000

    struct Outgoing {
        var topic: String
        var payload: [UInt8]
        var qos: Int32
        var retain: Bool
        var correlationData: [UInt8]?
    }

    /// How the broker is reached now; `retarget` changes it (on the network thread).
    public var options: MQTTOptions { currentOptions.withLock { $0 } }
    private let currentOptions: Mutex<MQTTOptions>
    public let subscriptions: [String]
    let logger: Logger
    let mosq: OpaquePointer
    /// Topics subscribed beside `subscriptions`, replaced while running (`subscribe(group:topics:)`).
    let bound = BoundSubscriptions()
    private let state = Mutex(State())
    private let thread = DedicatedThread(name: "mqtt-network")
    /// Ends a back-off pause early when `shutdown` is called.
    private let wakeup = WakeSignal()
    /// Publications that leave together (`publishTogether`).
    private let run = PublicationRun()
    /// Held around every use of `mosq` from other threads (publishing) and while the network thread
    /// re-initialises it for a new client id; it keeps the QoS 1 publications not yet acknowledged.
    let sending = Mutex(Unacknowledged<Outgoing>(limit: MQTTClient.outboxLimit))

    /// Where events go (see `init`).
    private let handler: @Sendable (MQTTEvent) -> Void
    /// The largest payload taken on a topic (`MQTTPayloadCap`); nil takes any.
    let payloadCap: (@Sendable (String) -> MQTTPayloadCap)?

    /// - Parameters:
    ///   - payloadCap: asked on the network thread for each message's topic before its payload is
    ///     copied; a message over its cap is dropped with a log line, or handed on empty (`answered`).
    ///   - onEvent: called on the network thread with each event, in order. It must only
    ///     hand the event on (e.g. yield it into the owner's own stream), never block.
    public init(
        options: MQTTOptions, subscriptions: [String], logger: Logger, payloadCap: (@Sendable (String) -> MQTTPayloadCap)? = nil,
        onEvent: @escaping @Sendable (MQTTEvent) -> Void
    ) throws(MQTTError) {
        MQTTLibrary.initialize()
        handler = onEvent
        self.payloadCap = payloadCap
        currentOptions = Mutex(options)
        self.subscriptions = subscriptions
        self.logger = logger
        guard let handle = mosquitto_new(options.clientID, options.cleanSession, nil) else {
            throw MQTTError("could not create the MQTT client (out of memory or invalid client id)")
        }
        mosq = handle
        state.withLock { $0.clientID = options.clientID }
        mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        try configure()
    }

    deinit {
        mosquitto_destroy(mosq)
    }

    private func configure() throws(MQTTError) {
        let version = options.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check(mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, version), "protocol version")
        try check(mosquitto_threaded_set(mosq, true), "threading")
        // Without it, Nagle holds a response behind the PUBACK the node just sent for the command
        // until the broker's delayed ACK (about 40 ms): benchmarks measured 88 ms per command.
        try check(mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY")
        if let user = options.username {
            try check(mosquitto_username_pw_set(mosq, user, options.password), "username")
        }
        if options.tls.isEnabled {
            let rc = mosquitto_tls_set(mosq, options.tls.caFile, nil, options.tls.certFile, options.tls.keyFile, nil)
            try check(rc, "TLS files")
        }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes {
                mosquitto_will_set(mosq, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
            }
            try check(rc, "last will")
        }
        mosquitto_connect_v5_callback_set(mosq, mqttOnConnect)
        mosquitto_disconnect_v5_callback_set(mosq, mqttOnDisconnect)
        mosquitto_message_v5_callback_set(mosq, mqttOnMessage)
        mosquitto_publish_v5_callback_set(mosq, mqttOnPublish)
        mosquitto_subscribe_v5_callback_set(mosq, mqttOnSubscribe)
        mosquitto_log_callback_set(mosq, mqttOnLog)
    }

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError("MQTT \(what): \(String(cString: mosquitto_strerror(rc)))")
        }
    }

    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Why the last attempt to connect failed (refused, unreachable, a CONNACK refusal, TLS) or the
    /// connection was lost, as logged; nil before any failure and again once connected. A one-shot
    /// client (`noiseclock fleet`) reports it at once instead of waiting for a timeout.
    public var connectionFailure: String? { state.withLock { $0.lastFailure } }

    // MARK: Running

    /// Starts the network thread; connecting happens there, so this never blocks.
    /// The thread keeps the client alive until `shutdown`.
    public func start() {
        do {
            try thread.start { [self] in runNetworkLoop() }
        } catch {
            preconditionFailure("\(error)")
        }
    }

    private func runNetworkLoop() {
        var delay = options.reconnectDelay.minimum
        var socketOpen = false
        var everConnected = false
        // With several brokers (`failover`) each failure moves to the next, round the list.
        var brokers = options.brokers
        var index = 0
        var identity = ClientIdentity(stable: options.clientID)
        var current: String { "\(brokers[index].host):\(brokers[index].port)" }
        while true {
            if state.withLock({ $0.stopping }) {
                if socketOpen { finishGracefully() }
                break
            }
            if let (next, generation, farewell) = takeRetarget() {
                leave(socketOpen: socketOpen, farewell: farewell)
                switchOptions(to: next, generation: generation)
                socketOpen = false
                everConnected = false
                brokers = next.brokers
                index = 0
                identity = ClientIdentity(stable: next.clientID)
                delay = next.reconnectDelay.minimum
            }
            if !socketOpen {
                let broker = current
                state.withLock {
                    $0.sessionRefused = false
                    $0.refusal = nil
                    $0.libraryError = nil
                    $0.broker = broker
                }
                let rc = everConnected && brokers.count == 1 && !sendsConnectProperties
                    ? mosquitto_reconnect(mosq)
                    : connect(to: brokers[index], mosq: mosq)
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    socketOpen = true
                    everConnected = true
                } else {
                    reportFailure("cannot connect to \(current): \(describeFailure(rc))", retryIn: delay)
                    index = (index + 1) % brokers.count
                    pause(seconds: delay)
                    delay = min(delay * 2, options.reconnectDelay.maximum)
                    continue
                }
            }
            // Publishes from other threads wake the loop through libmosquitto's socket pair, so a
            // long timeout only delays noticing `shutdown` (by at most a second) and saves wake-ups.
            let rc = loopOnce()
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                socketOpen = false
                let wasConnected = markDisconnected()
                let sessionRefused = state.withLock { state in
                    defer { state.sessionRefused = false }
                    return state.sessionRefused
                }
                // A refused CONNACK also ends the loop with an error; the refusal is the real cause.
                // A TLS handshake may fail here rather than in connect: same words, one log line.
                let refusal = state.withLock { $0.refusal }
                let message = wasConnected
                    ? "connection to \(current) lost: \(describeFailure(rc))"
                    : sessionRefused
                    ? "\(current) accepted client id \(identity.current) and closed the connection before acknowledging its subscriptions"
                    : refusal ?? "cannot connect to \(current): \(describeFailure(rc))"
                reportFailure(message, retryIn: delay)
                index = (index + 1) % brokers.count
                // The first refusal of the stable id's session: a new id, at once (see `ClientIdentity`).
                let firstRefusal = sessionRefused && !identity.isSuffixed
                if sessionRefused {
                    reinitialise(as: identity.sessionRefused(suffix: UInt32.random(in: .min ... .max)))
                    everConnected = false
                }
                // A lost connection with another broker to go to: go there at once.
                if !(wasConnected && brokers.count > 1) && !firstRefusal {
                    pause(seconds: delay)
                    delay = min(delay * 2, options.reconnectDelay.maximum)
                }
            } else if isConnected {
                delay = options.reconnectDelay.minimum
            }
        }
    }

    /// One `mosquitto_loop` iteration with the socket corked: what it writes, and the rest of a
    /// run of publications being queued meanwhile (`PublicationRun`), leaves in one segment.
    private func loopOnce() -> Int32 {
        let socket = mosquitto_socket(mosq)
        PublicationRun.cork(socket, true)
        var rc = mosquitto_loop(mosq, 1000, 1)
        if rc == MOSQ_ERR_SUCCESS.rawValue, run.isOpen { run.waitUntilClosed(seconds: 0.05) }
        if rc == MOSQ_ERR_SUCCESS.rawValue, mosquitto_want_write(mosq) { rc = mosquitto_loop(mosq, 0, 1) }
        // libmosquitto closes the socket on an error; its number may already be another file's.
        if mosquitto_socket(mosq) == socket { PublicationRun.cork(socket, false) }
        return rc
    }

    /// Re-initialises the handle under a new client id (libmosquitto has no other way to change it):
    /// the same options, will and callbacks; the QoS 1 publications it held unacknowledged go to
    /// the front of the outbox, to leave after the next connect.
    /// `because`: the warning to log (nil: none, a retarget logs its own line).
    private func reinitialise(as clientID: String, because reason: String? = "the broker refused the session") {
        sending.withLock { unacknowledged in
            let held = unacknowledged.takeAll()
            mosquitto_reinitialise(mosq, clientID, options.cleanSession, Unmanaged.passUnretained(self).toOpaque())
            do {
                try configure()
            } catch {
                logger.error("cannot set up the MQTT client again: \(error)")
            }
            state.withLock { state in
                state.clientID = clientID
                state.outbox = Array((held + state.outbox).suffix(Self.outboxLimit))
            }
            guard let reason else { return }
            logger.warning("connecting under a new client id: \(reason)", metadata: [
                "client_id": "\(clientID)", "requeued": "\(held.count)",
            ])
        }
    }

    /// Sends the final message (e.g. `offline`), waits up to 2 s for it to leave, then disconnects.
    private func finishGracefully() {
        if isConnected, let final = state.withLock({ $0.finalMessage }) {
            let claimed = state.withLock { state in
                defer { state.finalMessageClaimed = true }
                return state.finalMessageClaimed
            }
            if !claimed { publishFinalMessage(final) }
            for _ in 0..<20 where !state.withLock({ $0.finalMessageDone }) {
                if mosquitto_loop(mosq, 100, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
            }
        }
        mosquitto_disconnect(mosq)
        for _ in 0..<5 where mosquitto_loop(mosq, 50, 1) == MOSQ_ERR_SUCCESS.rawValue {}
        markDisconnected()
    }

    /// Publishes the final message at QoS 1 and records its id, from `shutdown` or the loop.
    private func publishFinalMessage(_ final: (topic: String, payload: [UInt8], retain: Bool)) {
        var mid: Int32 = 0
        let rc = sending.withLock { _ in
            final.payload.withUnsafeBytes {
                mosquitto_publish(mosq, &mid, final.topic, Int32($0.count), $0.baseAddress, 1, final.retain)
            }
        }
        state.withLock { state in
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                state.finalMessageDone = true
                return
            }
            state.finalMessageID = mid
            if state.acknowledgedWhileStopping.contains(mid) { state.finalMessageDone = true }
        }
    }

    /// The back-off wait; `shutdown` and `retarget` signal `wakeup`, so neither waits for it.
    private func pause(seconds: Double) {
        guard !state.withLock({ $0.stopping || $0.retarget != nil }) else { return }
        wakeup.wait(seconds: seconds)
    }

    /// Logs each distinct failure once per streak (until the next good connection), so a wrong
    /// password or CA is one clear error line, and the retries are debug lines.
    private func reportFailure(_ message: String, retryIn delay: Double) {
        let isNew = state.withLock { state in
            state.lastFailure = message
            return state.failuresLogged.insert(message).inserted
        }
        if isNew {
            logger.error("\(message); retrying with back-off", metadata: ["retry_in_s": "\(delay)"])
        } else {
            logger.debug("\(message)", metadata: ["retry_in_s": "\(delay)"])
        }
    }

    /// `describe(rc)`, plus OpenSSL's reason for a TLS failure (e.g. "certificate verify failed").
    private func describeFailure(_ rc: Int32) -> String {
        let text = Self.describe(rc)
        guard rc == MOSQ_ERR_TLS.rawValue, let detail = state.withLock({ $0.libraryError }) else { return text }
        return "\(text) (\(detail))"
    }

    func libraryLogged(level: Int32, _ text: String) {
        guard level & MOSQ_LOG_ERR != 0 else { return }
        state.withLock { $0.libraryError = text }
    }

    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }

    /// Asks the thread to send `finalMessage`, disconnect and stop; returns when it has: about a
    /// round trip with a final message, up to a second (the loop's timeout) without one while
    /// connected, at once while retrying.
    public func shutdown(finalMessage: (topic: String, payload: [UInt8], retain: Bool)?) {
        let publishHere = state.withLock { state -> Bool in
            state.finalMessage = finalMessage
            state.stopping = true
            guard finalMessage != nil, state.connected, !state.flushing else { return false }
            state.finalMessageClaimed = true
            return true
        }
        // Publishing from another thread wakes `mosquitto_loop` through libmosquitto's socket pair.
        if publishHere, let finalMessage { publishFinalMessage(finalMessage) }
        wakeup.signal()
        thread.join()
    }

    // MARK: Another broker

    /// Moves the client to another broker (the web app's settings): `farewell` is published to the
    /// broker it leaves while connected (`offline`: a clean DISCONNECT suppresses the will), which
    /// also wakes the network thread; that waits up to a second for it, disconnects, takes `options`
    /// and connects as at the start (`.disconnected`, then `.connected` there). Not connected, the
    /// thread's back-off ends at once (inside `mosquitto_loop` it notices within its 1 s timeout).
    /// Returns the generation to ask `isConnected(generation:)` about.
    public func retarget(to options: MQTTOptions, farewell: (topic: String, payload: [UInt8], retain: Bool)?) -> Int {
        let (generation, publishHere) = state.withLock { state in
            state.retarget = options
            state.farewell = farewell
            state.farewellSent = false
            state.requestedGeneration += 1
            return (state.requestedGeneration, farewell != nil && state.connected && !state.flushing)
        }
        if publishHere, let farewell { sendFarewell(farewell) }
        wakeup.signal()
        return generation
    }

    /// Publishes the farewell at QoS 1 and records its id under `sending`, which `didPublish` takes
    /// first: its PUBACK cannot be seen before the id is stored.
    private func sendFarewell(_ farewell: (topic: String, payload: [UInt8], retain: Bool)) {
        sending.withLock { _ in
            var mid: Int32 = 0
            let rc = farewell.payload.withUnsafeBytes {
                mosquitto_publish(mosq, &mid, farewell.topic, Int32($0.count), $0.baseAddress, 1, farewell.retain)
            }
            state.withLock { state in
                state.farewellID = rc == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
                state.farewellDone = false
                state.farewellSent = rc == MOSQ_ERR_SUCCESS.rawValue
            }
        }
    }

    /// Connected (subscriptions acknowledged) under the options of retarget `generation` or a later one.
    public func isConnected(generation: Int) -> Bool {
        state.withLock { $0.connected && $0.generation >= generation }
    }

    /// The latest retarget asked for (a later one replaces an earlier one not yet taken).
    private func takeRetarget() -> (MQTTOptions, Int, (topic: String, payload: [UInt8], retain: Bool)?)? {
        state.withLock { state in
            guard let next = state.retarget else { return nil }
            defer {
                state.retarget = nil
                state.farewell = nil
            }
            return (next, state.requestedGeneration, state.farewell)
        }
    }

    /// Leaves the current broker for a retarget: `farewell` first while connected, then DISCONNECT.
    private func leave(socketOpen: Bool, farewell: (topic: String, payload: [UInt8], retain: Bool)?) {
        guard socketOpen else { return }
        if isConnected, let farewell {
            if !state.withLock({ $0.farewellSent }) { sendFarewell(farewell) }
            for _ in 0..<10 where state.withLock({ $0.farewellSent && !$0.farewellDone }) {
                if mosquitto_loop(mosq, 100, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
            }
        }
        mosquitto_disconnect(mosq)
        for _ in 0..<3 where mosquitto_loop(mosq, 20, 1) == MOSQ_ERR_SUCCESS.rawValue {}
        markDisconnected()
    }

    /// Takes the retarget's options: the handle set up again for them (its id, user, TLS, will).
    private func switchOptions(to next: MQTTOptions, generation: Int) {
        currentOptions.withLock { $0 = next }
        reinitialise(as: next.clientID, because: nil)
        state.withLock { state in
            state.farewellID = nil
            state.farewellSent = false
            state.generation = generation
            state.failuresLogged = []
            state.lastFailure = nil
        }
        logger.notice("MQTT broker changed; connecting", metadata: ["broker": "\(next)"])
    }

    // MARK: Publishing and subscribing

    /// Publishes a message. While offline, QoS 1 non-retained messages wait in an outbox (the
    /// oldest dropped beyond `outboxLimit`) and go out after the next connect, before anything
    /// published after it; retained ones are dropped because the owner re-publishes all retained
    /// state on `.connected`, and QoS 0 ones too. Returns false if the message was not sent or queued.
    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool, correlationData: [UInt8]? = nil) -> Bool {
        let message = Outgoing(topic: topic, payload: payload, qos: qos, retain: retain, correlationData: correlationData)
        let queued = state.withLock { state -> Bool? in
            if state.flushing {
                state.outbox.append(message)
                return true
            }
            if state.connected { return nil }
            guard qos > 0, !retain else { return false }
            if state.outbox.count >= Self.outboxLimit { state.outbox.removeFirst() }
            state.outbox.append(message)
            return true
        }
        if let queued { return queued }
        return send(topic: topic, payload: payload, qos: qos, retain: retain, correlationData: correlationData)
    }

    /// Runs `body`, whose publications belong together (one input's events, new state and
    /// response): they leave in one TCP segment, so subscribers get them at once.
    public func publishTogether(_ body: () -> Void) {
        run.begin()
        defer { run.end() }
        body()
    }

    private func send(topic: String, payload: [UInt8], qos: Int32, retain: Bool, correlationData: [UInt8]?) -> Bool {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let correlationData, options.protocolVersion == .v5, correlationData.count <= Int(UInt16.max) {
            _ = correlationData.withUnsafeBytes {
                mosquitto_property_add_binary(&properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), $0.baseAddress, UInt16($0.count))
            }
        }
        // Recorded under the same lock as the publish: its PUBACK (`didPublish`) cannot come first.
        let rc = sending.withLock { unacknowledged in
            var mid: Int32 = 0
            let rc = payload.withUnsafeBytes {
                mosquitto_publish_v5(mosq, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain, properties)
            }
            if rc == MOSQ_ERR_SUCCESS.rawValue, qos > 0, !retain {
                unacknowledged.sent(mid, Outgoing(topic: topic, payload: payload, qos: qos, retain: retain, correlationData: correlationData))
            }
            return rc
        }
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            logger.warning("publish failed", metadata: ["topic": "\(topic)", "error": "\(Self.describe(rc))"])
            return false
        }
        return true
    }

    // MARK: Callbacks (network thread)

    func didConnect(code: Int32) {
        guard code == 0 else {
            let reason = options.protocolVersion == .v5
                ? String(cString: mosquitto_reason_string(code)) : String(cString: mosquitto_connack_string(code))
            // Reported by the loop once the broker closes the connection, with the real delay.
            state.withLock { $0.refusal = "broker \(options.host):\(options.port) refused the connection: \(reason)" }
            return
        }
        var pending: Set<Int32> = []
        // The fixed topics and the bound ones (a device's state), under the lock a re-binding takes.
        bound.connecting { grouped in
            var seen = Set(subscriptions)
            for topic in subscriptions + grouped.filter({ seen.insert($0).inserted }) {
                var mid: Int32 = 0
                let rc = subscribeOne(topic, messageID: &mid)
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    pending.insert(mid)
                } else {
                    logger.error("subscribe failed", metadata: ["topic": "\(topic)", "error": "\(Self.describe(rc))"])
                }
            }
        }
        state.withLock { state in
            state.accepted = true
            state.pendingSubscriptions = pending
        }
        if pending.isEmpty { becomeConnected() }
    }

    /// A SUBACK (on this network thread, like `didConnect`): the last one makes the client connected.
    func didSubscribe(messageID: Int32) {
        let complete = state.withLock { state in
            state.pendingSubscriptions.remove(messageID) != nil && state.pendingSubscriptions.isEmpty && state.accepted
        }
        if complete { becomeConnected() }
    }

    private func becomeConnected() {
        let (queued, broker, clientID) = state.withLock { state in
            state.connected = true
            state.flushing = true
            state.failuresLogged = []
            state.lastFailure = nil
            return (state.outbox.count, state.broker, state.clientID)
        }
        logger.info("connected to MQTT broker", metadata: ["broker": "\(broker)", "client_id": "\(clientID)", "queued": "\(queued)"])
        handler(.connected)
        flushOutbox()
    }

    /// Sends what waited while offline, then what was published meanwhile (the owner's
    /// reaction to `.connected`), in order, until the outbox stays empty.
    private func flushOutbox() {
        while true {
            let batch = state.withLock { state in
                if state.outbox.isEmpty { state.flushing = false }
                defer { state.outbox.removeAll() }
                return state.outbox
            }
            if batch.isEmpty { return }
            for message in batch {
                _ = send(topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain,
                         correlationData: message.correlationData)
            }
        }
    }

    func didDisconnect(code: Int32) {
        markDisconnected()
    }

    @discardableResult
    private func markDisconnected() -> Bool {
        let (wasConnected, stopping) = state.withLock { state in
            defer {
                if state.accepted && !state.connected { state.sessionRefused = true }
                state.connected = false
                state.accepted = false
                state.pendingSubscriptions = []
            }
            return (state.connected, state.stopping)
        }
        bound.disconnected()
        if wasConnected {
            // Expected on shutdown; a warning only when the connection was lost.
            if stopping { logger.info("disconnected from MQTT broker") } else { logger.warning("disconnected from MQTT broker") }
            handler(.disconnected)
        }
        return wasConnected
    }

    func didPublish(messageID: Int32) {
        sending.withLock { $0.acknowledged(messageID) }
        state.withLock { state in
            if state.farewellID == messageID { state.farewellDone = true }
            if state.finalMessageID == messageID {
                state.finalMessageDone = true
            } else if state.stopping {
                state.acknowledgedWhileStopping.insert(messageID)
            }
        }
    }

    func didReceive(_ message: MQTTMessage) {
        handler(.message(message))
    }
}

func mqttOnPublish(_ mosq: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ mid: Int32, _ rc: Int32, _ props: OpaquePointer?) {
    guard let userdata else { return }
    Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue().didPublish(messageID: mid)
}
