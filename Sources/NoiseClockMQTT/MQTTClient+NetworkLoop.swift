import CMosquitto
import Glibc
import Logging

// The network thread: connect, loop, back off and reconnect (see `MQTTClient`).
extension MQTTClient {
    /// Starts the network thread; connecting happens there, so this never blocks.
    /// The thread keeps the client alive until `shutdown`.
    public func start() {
        do {
            try thread.start { [self] in runNetworkLoop() }
        } catch {
            preconditionFailure("\(error)")
        }
    }

    private func runNetworkLoop() {
        var delay = options.reconnectDelay.minimum
        var socketOpen = false
        var everConnected = false
        // With several brokers (`failover`) each failure moves to the next, round the list.
        var brokers = options.brokers
        var index = 0
        var identity = ClientIdentity(stable: options.clientID)
        var current: String { "\(brokers[index].host):\(brokers[index].port)" }
        while true {
            if state.withLock({ $0.stopping }) {
                if socketOpen { finishGracefully() }
                break
            }
            if let (next, generation, farewell) = takeRetarget() {
                leave(socketOpen: socketOpen, farewell: farewell)
                switchOptions(to: next, generation: generation)
                socketOpen = false
                everConnected = false
                brokers = next.brokers
                index = 0
                identity = ClientIdentity(stable: next.clientID)
                delay = next.reconnectDelay.minimum
            }
            if !socketOpen {
                let broker = current
                state.withLock {
                    $0.sessionRefused = false
                    $0.refusal = nil
                    $0.libraryError = nil
                    $0.broker = broker
                }
                let rc = everConnected && brokers.count == 1 && !sendsConnectProperties
                    ? mosquitto_reconnect(mosq)
                    : connect(to: brokers[index], mosq: mosq)
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    socketOpen = true
                    everConnected = true
                } else {
                    reportFailure("cannot connect to \(current): \(describeFailure(rc))", retryIn: delay)
                    index = (index + 1) % brokers.count
                    pause(seconds: delay)
                    delay = min(delay * 2, options.reconnectDelay.maximum)
                    continue
                }
            }
            // Publishes from other threads wake the loop through libmosquitto's socket pair, so a
            // long timeout only delays noticing `shutdown` (by at most a second) and saves wake-ups.
            let rc = loopOnce()
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                socketOpen = false
                let wasConnected = markDisconnected()
                let sessionRefused = state.withLock { state in
                    defer { state.sessionRefused = false }
                    return state.sessionRefused
                }
                // A refused CONNACK also ends the loop with an error; the refusal is the real cause.
                // A TLS handshake may fail here rather than in connect: same words, one log line.
                let refusal = state.withLock { $0.refusal }
                let message = wasConnected
                    ? "connection to \(current) lost: \(describeFailure(rc))"
                    : sessionRefused
                    ? "\(current) accepted client id \(identity.current) and closed the connection before acknowledging its subscriptions"
                    : refusal ?? "cannot connect to \(current): \(describeFailure(rc))"
                reportFailure(message, retryIn: delay)
                index = (index + 1) % brokers.count
                // The first refusal of the stable id's session: a new id, at once (see `ClientIdentity`).
                let firstRefusal = sessionRefused && !identity.isSuffixed
                if sessionRefused {
                    reinitialise(as: identity.sessionRefused(suffix: UInt32.random(in: .min ... .max)))
                    everConnected = false
                }
                // A lost connection with another broker to go to: go there at once.
                if !(wasConnected && brokers.count > 1) && !firstRefusal {
                    pause(seconds: delay)
                    delay = min(delay * 2, options.reconnectDelay.maximum)
                }
            } else if isConnected {
                delay = options.reconnectDelay.minimum
            }
        }
    }

    /// One `mosquitto_loop` iteration with the socket corked: what it writes, and the rest of a
    /// run of publications being queued meanwhile (`PublicationRun`), leaves in one segment.
    private func loopOnce() -> Int32 {
        let socket = mosquitto_socket(mosq)
        PublicationRun.cork(socket, true)
        var rc = mosquitto_loop(mosq, 1000, 1)
        if rc == MOSQ_ERR_SUCCESS.rawValue, run.isOpen { run.waitUntilClosed(seconds: 0.05) }
        if rc == MOSQ_ERR_SUCCESS.rawValue, mosquitto_want_write(mosq) { rc = mosquitto_loop(mosq, 0, 1) }
        // libmosquitto closes the socket on an error; its number may already be another file's.
        if mosquitto_socket(mosq) == socket { PublicationRun.cork(socket, false) }
        return rc
    }

    /// Re-initialises the handle under a new client id (libmosquitto has no other way to change it):
    /// the same options, will and callbacks; the QoS 1 publications it held unacknowledged go to
    /// the front of the outbox, to leave after the next connect.
    /// `because`: the warning to log (nil: none, a retarget logs its own line).
    func reinitialise(as clientID: String, because reason: String? = "the broker refused the session") {
        sending.withLock { unacknowledged in
            let held = unacknowledged.takeAll()
            mosquitto_reinitialise(mosq, clientID, options.cleanSession, Unmanaged.passUnretained(self).toOpaque())
            do {
                try configure()
            } catch {
                logger.error("cannot set up the MQTT client again: \(error)")
            }
            state.withLock { state in
                state.clientID = clientID
                state.outbox = Array((held + state.outbox).suffix(Self.outboxLimit))
            }
            guard let reason else { return }
            logger.warning("connecting under a new client id: \(reason)", metadata: [
                "client_id": "\(clientID)", "requeued": "\(held.count)",
            ])
        }
    }

    /// The back-off wait; `shutdown` and `retarget` signal `wakeup`, so neither waits for it.
    private func pause(seconds: Double) {
        guard !state.withLock({ $0.stopping || $0.retarget != nil }) else { return }
        wakeup.wait(seconds: seconds)
    }

    /// Logs each distinct failure once per streak (until the next good connection), so a wrong
    /// password or CA is one clear error line, and the retries are debug lines.
    private func reportFailure(_ message: String, retryIn delay: Double) {
        let isNew = state.withLock { state in
            state.lastFailure = message
            return state.failuresLogged.insert(message).inserted
        }
        if isNew {
            logger.error("\(message); retrying with back-off", metadata: ["retry_in_s": "\(delay)"])
        } else {
            logger.debug("\(message)", metadata: ["retry_in_s": "\(delay)"])
        }
    }

    /// `describe(rc)`, plus OpenSSL's reason for a TLS failure (e.g. "certificate verify failed").
    private func describeFailure(_ rc: Int32) -> String {
        let text = Self.describe(rc)
        guard rc == MOSQ_ERR_TLS.rawValue, let detail = state.withLock({ $0.libraryError }) else { return text }
        return "\(text) (\(detail))"
    }

    func libraryLogged(level: Int32, _ text: String) {
        guard level & MOSQ_LOG_ERR != 0 else { return }
        state.withLock { $0.libraryError = text }
    }

    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
}
