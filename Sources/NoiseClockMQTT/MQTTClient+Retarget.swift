import CMosquitto
import Logging

// Another broker, taken while the client runs.
extension MQTTClient {
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
    func takeRetarget() -> (MQTTOptions, Int, (topic: String, payload: [UInt8], retain: Bool)?)? {
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
    func leave(socketOpen: Bool, farewell: (topic: String, payload: [UInt8], retain: Bool)?) {
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
    func switchOptions(to next: MQTTOptions, generation: Int) {
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
}
