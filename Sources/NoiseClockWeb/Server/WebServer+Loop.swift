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
        answerPendingCommands()
        for connection in Array(state.connections.values) { drop(connection) }
        for listener in state.listeners where listener.fd >= 0 { close(listener.fd) }
    }

    // MARK: Listening

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

    // MARK: Connections

    func service(_ connection: WebConnection, events: Int16) {
        if events & Int16(POLLOUT) != 0 { flush(connection) }
        guard state.connections[connection.id] != nil else { return }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(connection) }
    }

    func receive(_ connection: WebConnection) {
        let count = state.readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
            drop(connection)
            return
        }
        guard count > 0 else { return }
        switch connection.phase {
        case .reading:
            connection.input += state.readBuffer.prefix(count)
            readHead(connection)
        case .readingBody:
            connection.input += state.readBuffer.prefix(count)
            readBody(connection)
        default:
            break  // bytes after the request are not read into anything
        }
    }

    /// The head decides (Host, access, origin, route) before a byte of the body is taken: a
    /// refused request is answered and closed with its body unread.
    func readHead(_ connection: WebConnection) {
        switch HTTPRequestParser.head(connection.input, from: connection.scanned) {
        case .incomplete(let resume):
            connection.scanned = resume
        case .invalid(let status, let message):
            let code = status == 413 ? "payload_too_large" : "bad_request"
            answer(connection, .error(status, code: code, message))
        case .complete(let request, let bodyStart, let length):
            connection.isHead = request.method == "HEAD"
            let action = state.router.route(request, from: connection.group, now: clock() / 1000)
            if case .command(let suffix, _) = action, length > 0 {
                connection.phase = .readingBody(command: suffix, start: bodyStart, length: length)
                connection.deadline = clock() + options.requestMilliseconds
                readBody(connection)
            } else {
                connection.input = []
                handle(action, on: connection)
            }
        }
    }

    func readBody(_ connection: WebConnection) {
        guard case .readingBody(let suffix, let start, let length) = connection.phase, connection.input.count - start >= length else { return }
        let body = Array(connection.input[start..<(start + length)])
        connection.input = []
        handle(.command(suffix, body: body), on: connection)
    }

    func handle(_ action: WebAction, on connection: WebConnection) {
        switch action {
        case .respond(let response):
            answer(connection, response)
        case .health:
            answer(connection, HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: state.health.json))
        case .backup(let secrets):
            answer(connection, backend.backup(secrets: secrets))
        case .settings:
            answer(connection, backend.settings())
        case .audioDevices:
            answer(connection, backend.audioDevices())
        case .stationSearch(let query):
            connection.phase = .waiting
            state.pendingCommands[connection.id] = "stations/search"
            if !backend.searchStations(id: connection.id, query: query) {
                state.pendingCommands[connection.id] = nil
                answer(connection, .error(404, code: "unknown_command", "no station directory here"))
            }
        case .state:
            connection.phase = .waiting
            requestSnapshot(for: connection)
        case .events:
            let streams = state.connections.values.filter(\.isStream)
            guard streams.count < options.maximumStreams else {
                answer(connection, .error(503, code: "busy", "too many event streams open (\(options.maximumStreams)); close one and try again"))
                return
            }
            guard streams.reduce(0, { $0 + ($1.group == connection.group ? 1 : 0) }) < options.maximumStreamsPerAddress else {
                let limit = options.maximumStreamsPerAddress
                answer(connection, .error(503, code: "busy", "too many event streams from one address (\(limit)); close one and try again"))
                return
            }
            let head = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("X-Accel-Buffering", "no")])
            connection.output += head.head(contentLength: false) + Array("retry: 3000\n\n".utf8)
            connection.phase = .streamStarting(snapshot: requestSnapshot(for: connection))
            flush(connection)
        case .command(let suffix, let body):
            if let response = backend.answerHere(suffix, body: body, via: connection.via) {
                answer(connection, response)
                return
            }
            connection.phase = .waiting
            state.pendingCommands[connection.id] = suffix
            // The reply comes back as mail (`reply`), in the order of the node's effects.
            if !backend.submit(id: connection.id, command: suffix, payload: body) {
                state.pendingCommands[connection.id] = nil
                answer(connection, WebRouter.commandResponse(Self.shuttingDown(suffix)))
            }
        }
    }

    @discardableResult
    func requestSnapshot(for connection: WebConnection?) -> UInt64 {
        let id = state.nextSnapshotID
        state.nextSnapshotID += 1
        state.pendingSnapshots[id] = (connection?.id, clock() + options.snapshotMilliseconds)
        backend.requestSnapshot(id: id)
        return id
    }

    /// Queues a whole answer; the connection closes once it is written.
    func answer(_ connection: WebConnection, _ response: HTTPResponse) {
        connection.output += connection.isHead ? response.head() : response.serialized
        connection.phase = .closing
        // A client that does not read its answer is cut off after this.
        connection.deadline = clock() + options.requestMilliseconds
        flush(connection)
    }

    func flush(_ connection: WebConnection) {
        while !connection.output.isEmpty {
            let sent = connection.output.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                drop(connection)
                return
            }
            connection.output.removeFirst(sent)
        }
        if connection.phase == .closing { drop(connection) }
    }

    func drop(_ connection: WebConnection) {
        close(connection.fd)
        state.connections[connection.id] = nil
        state.pendingCommands[connection.id] = nil
    }

    /// Commands the node took but will not answer (it stopped first) are answered, not left hanging.
    func answerPendingCommands() {
        for (id, command) in state.pendingCommands {
            guard let connection = state.connections[id] else { continue }
            answer(connection, WebRouter.commandResponse(Self.shuttingDown(command)))
        }
        state.pendingCommands = [:]
    }

    static func shuttingDown(_ command: String) -> Response {
        Response(command: command, requestID: nil, outcome: .failure(CommandError(.shuttingDown, "the node is shutting down")))
    }

    // MARK: Mail from the node

    func deliverMail() {
        let (items, overflowed) = mailbox.withLock { box -> ([Mail], Bool) in
            defer {
                box.items = []
                box.overflowed = false
            }
            return (box.items, box.overflowed)
        }
        for mail in items {
            switch mail {
            case .observation(let observation):
                state.health.update(observation)
                // Formatted only when a stream is open (most nodes have no browser attached).
                let streams = state.connections.values.filter { $0.phase == .streaming }
                guard !streams.isEmpty else { continue }
                let event = WebStateView.event(observation)
                for connection in streams { enqueue(event, to: connection) }
            case .snapshot(let id, let entries):
                snapshotArrived(id, entries)
            case .reply(let id, let response):
                guard state.pendingCommands.removeValue(forKey: id) != nil, let connection = state.connections[id] else { continue }
                answer(connection, WebRouter.commandResponse(response))
            case .answer(let id, let response):
                guard state.pendingCommands.removeValue(forKey: id) != nil, let connection = state.connections[id] else { continue }
                answer(connection, response)
            case .listen(let addresses):
                listen(addresses)
            case .access(let token):
                let router = state.router
                state.router = WebRouter(gate: AccessGate(token: token), site: router.site, locale: router.locale, hosts: router.hosts)
            }
        }
        if overflowed {
            logger.warning("web app fell behind the node; closing the event streams (browsers reconnect)")
            for connection in state.connections.values where connection.isStream { drop(connection) }
        }
    }

    func snapshotArrived(_ id: UInt64, _ entries: [Observation]) {
        guard let pending = state.pendingSnapshots.removeValue(forKey: id) else { return }
        guard let connectionID = pending.connection else {
            for entry in entries { state.health.update(entry) }
            return
        }
        guard let connection = state.connections[connectionID] else { return }
        switch connection.phase {
        case .waiting:
            answer(connection, HTTPResponse(status: 200, headers: [("Content-Type", "application/json")],
                                            body: WebStateView.stateObject(entries, node: options.node)))
        case .streamStarting(let expected) where expected == id:
            connection.phase = .streaming
            connection.deadline = clock() + options.keepAliveMilliseconds
            let state = entries.flatMap(WebStateView.event)
            connection.stateBytes = state.count
            enqueue(state, to: connection)
        default:
            break
        }
    }

    func enqueue(_ bytes: [UInt8], to connection: WebConnection) {
        guard connection.output.count + bytes.count <= options.streamBufferLimit + connection.stateBytes else {
            logger.notice("event stream closed: the client reads too slowly", metadata: ["address": "\(connection.address)"])
            drop(connection)
            return
        }
        connection.output += bytes
        connection.deadline = clock() + options.keepAliveMilliseconds
        flush(connection)
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
