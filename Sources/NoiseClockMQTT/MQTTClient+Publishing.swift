import CMosquitto
import Logging

// Publishing; subscribing while running is in MQTTClient+Subscriptions.swift.
extension MQTTClient {
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

    func send(topic: String, payload: [UInt8], qos: Int32, retain: Bool, correlationData: [UInt8]?) -> Bool {
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
}
