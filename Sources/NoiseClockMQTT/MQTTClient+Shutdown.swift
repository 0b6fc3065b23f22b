import CMosquitto

// Teardown: the final message, DISCONNECT, the thread joined.
extension MQTTClient {
    /// Sends the final message (e.g. `offline`), waits up to 2 s for it to leave, then disconnects.
    func finishGracefully() {
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
}
