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
    let currentOptions: Mutex<MQTTOptions>
    public let subscriptions: [String]
    let logger: Logger
    let mosq: OpaquePointer
    /// Topics subscribed beside `subscriptions`, replaced while running (`subscribe(group:topics:)`).
    let bound = BoundSubscriptions()
    let state = Mutex(State())
    let thread = DedicatedThread(name: "mqtt-network")
    /// Ends a back-off pause early when `shutdown` is called.
    let wakeup = WakeSignal()
    /// Publications that leave together (`publishTogether`).
    let run = PublicationRun()
    /// Held around every use of `mosq` from other threads (publishing) and while the network thread
    /// re-initialises it for a new client id; it keeps the QoS 1 publications not yet acknowledged.
    let sending = Mutex(Unacknowledged<Outgoing>(limit: MQTTClient.outboxLimit))

    /// Where events go (see `init`).
    let handler: @Sendable (MQTTEvent) -> Void
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

    func configure() throws(MQTTError) {
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
}
