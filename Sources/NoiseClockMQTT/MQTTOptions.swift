/// How to reach the broker. The password is held here only in memory and is never printed:
/// `description` leaves it out.
public struct MQTTOptions: Sendable, CustomStringConvertible {
    public enum ProtocolVersion: Sendable { case v311, v5 }

    /// TLS is on when a CA file or a client certificate is given.
    public struct TLS: Sendable, Equatable {
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?

        public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }

        public var isEnabled: Bool { caFile != nil || certFile != nil }
    }

    public struct Will: Sendable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int32
        public var retain: Bool

        public init(topic: String, payload: [UInt8], qos: Int32, retain: Bool) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

    public var host: String
    public var port: Int
    public var clientID: String
    public var username: String?
    public var password: String?
    public var tls: TLS
    public var keepaliveSeconds: Int
    public var protocolVersion: ProtocolVersion
    public var will: Will?
    /// Reconnect back-off: doubles from `minimumDelay` up to `maximumDelay` seconds.
    public var reconnectDelay: (minimum: Double, maximum: Double) = (1, 30)
    /// False asks the broker to keep the session (subscriptions, queued QoS 1 messages) across
    /// disconnects; with MQTT 3.1.1 that needs no session-expiry property. The node uses true.
    public var cleanSession = true
    /// Further brokers (`mqtt.hosts` after the first): a lost or refused connection moves on to
    /// the next, round the list (`host`/`port` first).
    public var failover: [(host: String, port: Int)] = []
    /// MQTT v5 Maximum Packet Size, sent with every CONNECT: the broker drops any bigger message
    /// for this client instead of sending it. Nil (or MQTT 3.1.1, which has no such property): none.
    public var maximumPacketBytes: Int?

    /// Every broker to try, in order.
    public var brokers: [(host: String, port: Int)] { [(host, port)] + failover }

    public init(
        host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil,
        tls: TLS = TLS(), keepaliveSeconds: Int = 30, protocolVersion: ProtocolVersion = .v5, will: Will? = nil
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.tls = tls
        self.keepaliveSeconds = keepaliveSeconds
        self.protocolVersion = protocolVersion
        self.will = will
    }

    public var description: String {
        let auth = username.map { " user=\($0)" } ?? ""
        let secure = tls.isEnabled ? " tls" : ""
        return "\(host):\(port) client_id=\(clientID)\(auth)\(secure) v\(protocolVersion == .v5 ? "5" : "3.1.1")"
    }
}
