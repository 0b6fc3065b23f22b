import CMosquitto
import Logging

// libmosquitto's callbacks, on the network thread.
extension MQTTClient {
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
    func markDisconnected() -> Bool {
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
