/// A message received from the broker, with the MQTT v5 request/response properties if present.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool
    public var responseTopic: String?
    public var correlationData: [UInt8]?
    /// Set when the payload was over the topic's cap (`MQTTPayloadCap.answered`): its size; the
    /// payload is then empty (never copied).
    public var oversizeBytes: Int?

    public init(topic: String, payload: [UInt8], retain: Bool = false, responseTopic: String? = nil, correlationData: [UInt8]? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.responseTopic = responseTopic
        self.correlationData = correlationData
    }
}
