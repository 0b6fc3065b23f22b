import CMosquitto
import Logging

/// How big a payload the owner takes on a topic, asked on the network thread before anything of
/// the payload is copied out of libmosquitto's buffer.
public struct MQTTPayloadCap: Sendable, Equatable {
    public var bytes: Int
    /// Over the cap: true delivers the message with an empty payload and `oversizeBytes` set (the
    /// owner answers it, as a command is answered `payload_too_large`); false drops it with a log line.
    public var answered: Bool

    public init(bytes: Int, answered: Bool) {
        self.bytes = bytes
        self.answered = answered
    }
}

extension MQTTClient {
    /// Whether every connect carries properties (MQTT v5 Maximum Packet Size), so a reconnect must
    /// go through `mosquitto_connect_bind_v5` too (`mosquitto_reconnect` sends none).
    var sendsConnectProperties: Bool { options.protocolVersion == .v5 && options.maximumPacketBytes != nil }

    /// Connects to `broker`, asking (MQTT v5) for no packet over `options.maximumPacketBytes`: the
    /// broker then drops anything bigger for this client instead of sending it (mosquitto logs it).
    func connect(to broker: (host: String, port: Int), mosq: OpaquePointer) -> Int32 {
        guard sendsConnectProperties, let maximum = options.maximumPacketBytes else {
            return mosquitto_connect(mosq, broker.host, Int32(broker.port), Int32(options.keepaliveSeconds))
        }
        var properties: OpaquePointer?
        let added = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), UInt32(maximum))
        defer { mosquitto_property_free_all(&properties) }
        guard added == MOSQ_ERR_SUCCESS.rawValue else { return added }
        return mosquitto_connect_bind_v5(mosq, broker.host, Int32(broker.port), Int32(options.keepaliveSeconds), nil, properties)
    }

    /// A message over its topic's cap that nobody answers: one log line (the topic escaped by the
    /// log sink, and cut short), nothing copied, nothing handed on.
    func droppedOversize(topic: String, bytes: Int, cap: Int) {
        logger.warning("MQTT message over its size cap dropped", metadata: [
            "topic": "\(topic.unicodeScalars.count > 200 ? String(topic.unicodeScalars.prefix(200)) + "…" : topic)",
            "bytes": "\(bytes)", "cap": "\(cap)",
        ])
    }
}
