#if canImport(Glibc)
import Glibc
#endif
import CLinux
import NoiseClockCore

extension WebServer {
    /// The server thread: poll the wake fd, the listener and every connection; carry out mail,
    /// requests and deadlines; until `stop`.
    func run() {
        requestSnapshot(for: nil)
        while !mailbox.withLock({ $0.stopping }) {
            bindIfDue()
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let listening = state.listeners.filter { $0.fd >= 0 }
            for listener in listening { fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)) }
            let connections = Array(state.connections.values)
            for connection in connections {
                var events = Int16(POLLIN)
                if !connection.output.isEmpty { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), pollTimeout())
            if ready < 0 && errno != EINTR { break }
            if fds[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
                deliverMail()
            }
            for (index, listener) in listening.enumerated() where fds[1 + index].revents != 0 && state.listeners.contains(listener) {
                acceptAll(listener)
            }
            let offset = 1 + listening.count
            for (index, connection) in connections.enumerated() where fds[offset + index].revents != 0 {
                guard state.connections[connection.id] != nil else { continue }
                service(connection, events: fds[offset + index].revents)
            }
            checkDeadlines()
        }
        // Answers the node posted before it stopped (`restart`'s 202, then the stop) go out as
        // given; only the commands still unanswered get `shutting_down`.
        deliverMail()
        answerPendingCommands()
        for connection in Array(state.connections.values) { drop(connection) }
        for listener in state.listeners where listener.fd >= 0 { close(listener.fd) }
    }

    // MARK: Deadlines

    func pollTimeout() -> Int32 {
        let now = clock()
        var next = now + 60_000
        for listener in state.listeners where listener.fd < 0 { next = min(next, listener.nextAttempt) }
        for connection in state.connections.values where connection.phase != .waiting {
            next = min(next, connection.deadline)
        }
        for pending in state.pendingSnapshots.values { next = min(next, pending.deadline) }
        return Int32(clamping: max(0, next - now))
    }

    func checkDeadlines() {
        let now = clock()
        for connection in Array(state.connections.values) where now >= connection.deadline {
            switch connection.phase {
            case .reading:
                let seconds = options.headerMilliseconds / 1000
                answer(connection, .error(408, code: "request_timeout", "the request's headers did not arrive within \(seconds) s"))
            case .readingBody:
                let seconds = options.requestMilliseconds / 1000
                answer(connection, .error(408, code: "request_timeout", "the request's body did not arrive within \(seconds) s"))
            case .streaming:
                enqueue(Array(": keep-alive\n\n".utf8), to: connection)
            case .closing:
                drop(connection)
            default:
                break
            }
        }
        for (id, pending) in state.pendingSnapshots where now >= pending.deadline {
            state.pendingSnapshots[id] = nil
            guard let connectionID = pending.connection, let connection = state.connections[connectionID] else { continue }
            answer(connection, .error(503, code: "busy", "the node did not answer in time; try again"))
        }
    }
}
