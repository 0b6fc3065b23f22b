#if canImport(Glibc)
import Glibc
#endif
import CLinux
import NoiseClockCore

// Listening: bind (retried), accept within the per-client and global limits, refuse with 503.
extension WebServer {
    func bindIfDue() {
        for index in state.listeners.indices where state.listeners[index].fd < 0 && clock() >= state.listeners[index].nextAttempt {
            let address = state.listeners[index].address
            do {
                state.listeners[index].fd = try ListeningSocket.open(host: address.host, port: address.port)
                logger.info("web app listening; `noiseclock web-url` prints the address with its token", metadata: [
                    "address": "\(address)", "url": "\(options.announcedURL ?? "")",
                ])
            } catch {
                state.listeners[index].nextAttempt = clock() + options.bindRetryMilliseconds
                // The web app never costs an alarm: everything else runs on; this is retried.
                let retry = options.bindRetryMilliseconds / 1000
                logger.error("web.port: cannot listen; the web app is off until this is fixed (retrying every \(retry) s)", metadata: [
                    "key": "web.port", "address": "\(address)", "error": "\(error.description)",
                ])
            }
        }
    }

    /// Takes every waiting connection. Past the per-client limit (an address, an IPv6 /64) it
    /// gets 503 at once and is closed; past the global one it takes the slot of a half-sent
    /// request of a heavier client (`ConnectionBudget`), or gets 503. So neither one address nor
    /// many of them stalling requests can keep a whole request (a `/healthz` probe) out.
    func acceptAll(_ listener: Listener) {
        while let (fd, address) = ListeningSocket.accept(listener.fd) {
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let group = ClientGroup.of(address)
            let fromGroup = state.connections.values.reduce(0) { $0 + ($1.group == group ? 1 : 0) }
            var refusal: String?
            if fromGroup >= options.maximumConnectionsPerAddress {
                refusal = "too many connections from one address (\(options.maximumConnectionsPerAddress)); try again"
            } else if state.connections.count >= options.maximumConnections, !evictHalfSent(for: group) {
                refusal = "too many connections (\(options.maximumConnections)); try again"
            }
            if let refusal {
                Self.refuse(fd, refusal)
                continue
            }
            let connection = WebConnection(id: state.nextConnectionID, fd: fd, address: address, deadline: clock() + options.headerMilliseconds)
            state.nextConnectionID += 1
            connection.via = listener.address.description
            state.connections[connection.id] = connection
        }
    }

    /// Closes the oldest half-sent request of the client holding the most of them, if it holds
    /// more than `group` does; false when there is none such.
    func evictHalfSent(for group: String) -> Bool {
        let halfSent = state.connections.values.filter { $0.phase == .reading }.map { ConnectionBudget.HalfSent(id: $0.id, group: $0.group) }
        guard let id = ConnectionBudget.victim(among: halfSent, for: group), let victim = state.connections[id] else { return false }
        Self.refuse(victim.fd, "too many half-sent requests from your address while the server is full; send whole requests")
        state.connections[id] = nil
        return true
    }

    /// A 503 `busy`, sent without waiting, and the socket closed.
    static func refuse(_ fd: Int32, _ message: String) {
        let busy = HTTPResponse.error(503, code: "busy", message).serialized
        _ = busy.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }
}
