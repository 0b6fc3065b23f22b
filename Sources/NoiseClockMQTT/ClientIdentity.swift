/// The client id each connection uses: the configured one, until a broker drops a connection
/// after accepting it and before acknowledging its subscriptions; from then on a per-session
/// suffix (`noiseclock-bedside-1a2b3c4d`), kept across reconnects until that session is refused too.
///
/// Why: RabbitMQ 3.10 keeps a client's subscriptions in a durable queue named after the client
/// id (`mqtt-subscription-<id>qos1`) on one broker node. When that node crashes, no other node
/// can declare the queue again (its home node is down) until the node is back, so every
/// connection under that id is closed at its SUBSCRIBE — even with a clean session. A new id
/// gets a new queue, on the survivor it connects to.
///
/// Why not always a suffix: mosquitto (one broker) never refuses a session that way, and the
/// stable id keeps what a stable id gives there: a reconnect takes over the broker's half-open
/// copy of the old connection at once, instead of that copy's last will (`offline`, retained)
/// landing up to 1.5 keep-alives after the node said `online`. For the same reason a suffix,
/// once taken, is kept for later reconnects rather than changed or dropped each time.
struct ClientIdentity: Sendable, Equatable {
    /// The configured id (`mqtt.client_id`).
    let stable: String
    /// The id of the next connection.
    private(set) var current: String

    init(stable: String) {
        self.stable = stable
        current = stable
    }

    var isSuffixed: Bool { current != stable }

    /// The broker refused the session under `current`: the next connection uses `stable` with
    /// `suffix` (8 hex digits), a new queue name. Returns the new id.
    mutating func sessionRefused(suffix: UInt32) -> String {
        let hex = String(suffix, radix: 16)
        current = "\(stable)-\(String(repeating: "0", count: 8 - hex.count))\(hex)"
        return current
    }
}
