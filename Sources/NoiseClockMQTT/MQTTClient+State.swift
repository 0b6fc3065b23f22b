import Synchronization

// What the network thread and the callers share, under `MQTTClient.state`.
extension MQTTClient {
    // @unchecked Sendable: `mosq` is only used in ways libmosquitto allows from several threads
    // once `mosquitto_threaded_set(true)` is on (publish and subscribe from any thread, the loop
    // on ours), other threads only under `sending`, which the network thread holds while it
    // re-initialises the handle for a new client id; everything else that changes lives in
    // `state`, a `Mutex` shared by the network thread and the callers.
    struct State {
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
}
