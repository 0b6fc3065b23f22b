#if canImport(Glibc)
import Glibc
#endif
import CLinux
import NoiseClockCore

// Connections: read the head and body, hand the action on, answer, write, drop.
extension WebServer {
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
            state.pendingCommands[connection.id] = Response(
                command: "stations/search", requestID: nil, outcome: .failure(CommandError(.shuttingDown, "the node is shutting down")))
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
            let request: WebCommandRequest
            switch WebCommandRequest.look(up: suffix, body: body) {
            case .unknown(let refusal): return answer(connection, refusal)
            case .command(let found): request = found
            }
            switch backend.take(request, id: connection.id, via: connection.via) {
            case .answered(let response):
                answer(connection, response)
            case .handedOn:
                // The reply comes back as mail (`reply`) on this thread, in the order of the node's effects.
                connection.phase = .waiting
                state.pendingCommands[connection.id] = Self.shuttingDown(request)
            case .stopping:
                answer(connection, WebRouter.commandResponse(Self.shuttingDown(request)))
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
        for (id, shuttingDown) in state.pendingCommands {
            guard let connection = state.connections[id] else { continue }
            answer(connection, WebRouter.commandResponse(shuttingDown))
        }
        state.pendingCommands = [:]
    }

    static func shuttingDown(_ request: WebCommandRequest) -> Response {
        request.response(.failure(CommandError(.shuttingDown, "the node is shutting down")))
    }
}
